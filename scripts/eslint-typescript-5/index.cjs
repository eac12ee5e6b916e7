// typescript-eslint (its parser, its rules and ts-api-utils) calls require('typescript') and
// require('typescript/lib/tsserverlibrary'), and needs TypeScript 5's compiler API even to parse; the
// project's typescript is 7, whose package exposes no compiler API. This folder is a package of its own
// (a file: devDependency) so that npm installs TypeScript 5 in its own node_modules: as an npm alias at
// the root ("npm:typescript@5") its tsc bin would race typescript 7's for node_modules/.bin/tsc, which
// the build and the tests run. eslint.config.js imports this first; from then on, in the ESLint process
// only, a 'typescript' request from typescript-eslint's packages resolves here, and any other request as before.
const Module = require('node:module');

const fromLinter = /[\\/]node_modules[\\/](?:@typescript-eslint|typescript-eslint|ts-api-utils)[\\/]/;
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function (request, parent, ...rest) {
  if ((request === 'typescript' || request.startsWith('typescript/')) && fromLinter.test(parent?.filename ?? '')) {
    return require.resolve(request, { paths: [__dirname] });
  }
  return resolveFilename.call(this, request, parent, ...rest);
};
