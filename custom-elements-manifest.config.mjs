// The analyzer's settings for `npm run build:package` (it runs on its own TypeScript 5, bundled with it):
// the manifest describes the published files, so paths point at dist/ and internals are left out.
import { readFileSync } from 'node:fs';

/** Rewrites `src/x.ts` to `dist/x.js`: users get the built files, not the sources. */
const toDist = (path) => path.replace(/^src\/(.*)\.ts$/, 'dist/$1.js');

/** Drops private members and internal reactive state (`_status`) that the Lit plugin reports as attributes. */
const isPublic = (item) => item.privacy !== 'private' && !item.name.startsWith('#') && !item.name.startsWith('_');

function publishedShape() {
  return {
    name: 'payroll-link:published-shape',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        module.path = toDist(module.path);
        for (const exported of module.exports ?? []) {
          if (exported.declaration?.module) exported.declaration.module = toDist(exported.declaration.module);
        }
        for (const declaration of module.declarations ?? []) {
          if (declaration.members) declaration.members = declaration.members.filter(isPublic);
          if (declaration.attributes) declaration.attributes = declaration.attributes.filter(isPublic);
        }
      }
    },
  };
}

/**
 * The element's `static properties = { … } as const` (the framework typings read its attribute names from it):
 * the Lit plugin reads an object literal only, so it is given the one inside the `as const`.
 */
function constProperties() {
  return {
    name: 'payroll-link:const-properties',
    collectPhase({ ts, node }) {
      if (
        ts.isPropertyDeclaration(node) &&
        node.name.getText() === 'properties' &&
        node.initializer &&
        ts.isAsExpression(node.initializer)
      ) {
        node.initializer = node.initializer.expression;
      }
    },
  };
}

/**
 * The element's events, from its event map: `PayrollLinkEventMap` in src/element/events.ts is the one list of the
 * events, each member's doc comment its description, so the element's doc block has no `@fires` to keep in step.
 * Each member becomes what a `@fires {<type>} <name> - <description>` tag would have given.
 */
function eventsFromEventMap({ file = 'src/element/events.ts', map = 'PayrollLinkEventMap', tagName = 'payroll-link' } = {}) {
  let ts;
  return {
    name: 'payroll-link:events-from-event-map',
    initialize({ ts: typescript }) {
      ts = typescript;
    },
    packageLinkPhase({ customElementsManifest }) {
      const source = ts.createSourceFile(file, readFileSync(new URL(file, import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true);
      const declaration = source.statements.find((node) => ts.isInterfaceDeclaration(node) && node.name.text === map);
      if (!declaration) throw new Error(`${file} declares no interface ${map}.`);
      const events = declaration.members.filter(ts.isPropertySignature).map((member) => {
        const description = ts
          .getJSDocCommentsAndTags(member)
          .filter(ts.isJSDoc)
          .map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '')
          .join(' ')
          .replace(/\s*\n\s*/g, ' ');
        if (!description) throw new Error(`${map}['${member.name.text}'] in ${file} has no doc comment: it is the event's description.`);
        return { type: { text: member.type.getText(source) }, description, name: member.name.text };
      });
      const element = customElementsManifest.modules
        .flatMap((module) => module.declarations ?? [])
        .find((declaration) => declaration.tagName === tagName);
      if (!element) throw new Error(`The manifest has no <${tagName}>.`);
      if (element.events?.length) throw new Error(`<${tagName}> has events of its own (@fires?): they belong in ${map}.`);
      // Where the analyzer puts the events of `@fires` tags, after the members, so the manifest reads the same.
      const entries = Object.entries(element);
      entries.splice(entries.findIndex(([key]) => key === 'members') + 1, 0, ['events', events]);
      for (const [key] of entries) delete element[key];
      Object.assign(element, Object.fromEntries(entries));
    },
  };
}

export default {
  globs: ['src/element/payroll-link.ts'],
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [constProperties(), eventsFromEventMap(), publishedShape()],
};
