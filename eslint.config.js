// ESLint for the whole repository: `npm run lint`, run by `npm test` and so by CI.
//
// Type information: ON. typescript-eslint's type-aware rules (floating promises, misused promises, awaits of
// non-promises, `any` leaking out of a message event) find the bugs a linter is worth having for here. They
// need TypeScript 5's compiler API, and the project's typescript 7 has none (nor can typescript-eslint parse
// without it), so typescript-eslint is installed with TypeScript 5 for the linter alone, by the devDependency
// eslint-typescript-5 and its `overrides` entry in package.json (scripts/eslint-typescript-5/ says why).
// `npm run lint` keeps a cache in node_modules/.cache/eslint/: a file whose text and this config did not change is not
// linted again (a few seconds instead of about a minute). A type-aware rule can fail in a file that did not change,
// when a file it imports did: a cold run sees it (CI's fresh clone, or `rm -rf node_modules/.cache/eslint`).
import tseslint from 'eslint-typescript-5';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import lit from 'eslint-plugin-lit';
import wc from 'eslint-plugin-wc';
import globals from 'globals';

export default defineConfig(
  globalIgnores([
    'dist/',
    'test-output/',
    'docs/.vitepress/dist/',
    'docs/.vitepress/cache/',
    // Apps that the packaging tests install and build with their own dependencies (outside tsconfig.json too).
    'test/packaging/angular/',
    'test/packaging/apps/',
    'test/packaging/frameworks/',
    'test/packaging/nuxt/',
    'test/packaging/playwright/',
    'test/packaging/runtimes/',
    'test/packaging/workerd/',
    'test/packaging/react-native/',
    'test/packaging/servers/',
    'test/packaging/svelte/',
  ]),
  {
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.browser, ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Off: the code writes `list[0]!` on purpose (as if noUncheckedIndexedAccess were on), which this rule calls unnecessary.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: `async` is used on purpose without `await`, to match a Promise-returning callback (`fetchToken: async () => token`) and turn a throw into a rejection.
      '@typescript-eslint/require-await': 'off',
      // Off: callbacks are declared with method syntax (`cancel(): void`) and passed around unbound; every hit was such a callback or a global (`window.fetch`).
      '@typescript-eslint/unbound-method': 'off',
      // Off: an error of type unknown goes into a message as `${error}` on purpose (what String(error) gives).
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Off: its hits were values checked to be primitives or fetch inputs given as strings, where String() is right.
      '@typescript-eslint/no-base-to-string': 'off',
      // Off: `'open' | string` is written to document the expected value, and `unknown` in a union likewise.
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      // Off: initial values before a try block that assigns them are kept for the reader.
      'no-useless-assignment': 'off',
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            // node:test runs the test that test() and describe() return: nobody awaits them.
            { from: 'package', package: 'node:test', name: ['test', 'it', 'describe', 'suite'] },
            // @open-wc's chai typings make every `.equal` return a promise (for DOM diffs); for values it is synchronous.
            { from: 'package', package: '@types/chai', name: 'Equal' },
          ],
        },
      ],
      // `arguments: false`: servers take async handlers on purpose (`createServer(toNodeHandler(handler))`, whose promise never
      // rejects), as do the tests' servers and listeners, where a throw fails the test. Conditionals and spreads stay checked.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      // An AbortSignal's reason (typed any) is the right rejection for an aborted wait.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true }],
      // `interface HTMLElementEventMap extends PayrollLinkEventMap {}` is how a global event map is augmented.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // `declare global { namespace JSX … }` is how JSX's intrinsic elements are augmented.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      // A @ts-ignore that says why is allowed (browser-refusal.ts imports an unresolvable path on purpose).
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
      // `const session = this` names the session for the getters of the handle it builds.
      '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['session'] }],
      // `const { omitted: _, ...rest } = object` and `for await (const _chunk of body)` name what they skip.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, varsIgnorePattern: '^_' }],
    },
  },
  {
    // JavaScript files are outside tsconfig.json: linted without type information.
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests and benchmarks read JSON bodies, pages' globals and objects' internals as `any` on purpose; the
    // product's code (src/, sandbox/, server-example/, scripts/) keeps every rule.
    files: ['test/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // A store's claim() may answer synchronously or with a promise; Promise.all takes both.
      '@typescript-eslint/await-thenable': 'off',
      // A child's output is gathered as `out += chunk` (a Buffer, read as UTF-8).
      '@typescript-eslint/restrict-plus-operands': 'off',
      // chai's property assertions: `expect(frame).to.exist`.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    // Lit and custom elements: the element, the sandbox's Link page, the browser tests' hosts.
    files: ['src/element/**/*.ts', 'sandbox/link-page/**/*.ts', 'test/browser/**/*.ts'],
    extends: [lit.configs['flat/recommended'], wc.configs['flat/best-practice']],
    rules: {
      // Lit's traps beyond its recommended set: a class field that shadows a reactive property, a
      // lifecycle method that forgets super, a property named like a native attribute, state set in render.
      'lit/no-classfield-shadowing': 'error',
      'lit/lifecycle-super': 'error',
      'lit/no-native-attributes': 'error',
      'lit/no-this-assign-in-render': 'error',
      'lit/no-invalid-escape-sequences': 'error',
      'lit/no-legacy-imports': 'error',
    },
  },
);
