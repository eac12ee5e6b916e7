// The analyzer's settings for `npm run build:package` (it runs on its own TypeScript 5, bundled with it):
// the manifest describes the published files, so paths point at dist/ and internals are left out.

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

export default {
  globs: ['src/element/payroll-link.ts'],
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [constProperties(), publishedShape()],
};
