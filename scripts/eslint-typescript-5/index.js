// typescript-eslint with its own TypeScript 5: eslint.config.js imports typescript-eslint from here.
//
// typescript-eslint (its parser, its rules, ts-api-utils) calls require('typescript') and needs TypeScript
// 5's compiler API even to parse; the project's typescript is 7, whose package exposes no compiler API.
// TypeScript is a peer dependency of those packages, and npm installs a root dependency's peers at the root,
// where typescript 7 is; so typescript-eslint is a dependency of this package (a file: devDependency of the
// root) instead, and the root package.json's `overrides` entry for this package gives its whole tree
// TypeScript 5.9.3. npm then installs typescript-eslint, ts-api-utils and typescript 5.9.3 in this folder's
// node_modules, where Node's ordinary resolution finds them; the root's node_modules/.bin/tsc stays 7 (an
// npm alias at the root, "npm:typescript@5", would race typescript 7 for that bin).
export { default } from 'typescript-eslint';
