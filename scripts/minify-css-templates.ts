import { readFile } from 'node:fs/promises';
import { transform, type Plugin } from 'esbuild';

/**
 * An esbuild plugin for the bundled files: minifies the CSS inside Lit's `css` tagged templates of `*.styles.ts`
 * modules (esbuild minifies the JS around a template literal, never its text, so the indentation and newlines of
 * the element's styles would ship as written). Only a template without `${}` is touched, and only when the
 * minified CSS is plain text in a template (no backtick, backslash or `${`); anything else is left as it is.
 * The rules are the same, by esbuild's own CSS minifier: what the page loads before intent is smaller (#28).
 */
export const minifyCssTemplates: Plugin = {
  name: 'minify-css-templates',
  setup(build) {
    build.onLoad({ filter: /\.styles\.ts$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      let contents = '';
      let last = 0;
      for (const match of source.matchAll(/\bcss`([^`$\\]*)`/g)) {
        const minified = (await transform(match[1]!, { loader: 'css', minify: true })).code.trim();
        if (/[`\\]|\$\{/.test(minified)) continue;
        contents += `${source.slice(last, match.index)}css\`${minified}\``;
        last = match.index + match[0].length;
      }
      return { contents: contents + source.slice(last), loader: 'ts' };
    });
  },
};
