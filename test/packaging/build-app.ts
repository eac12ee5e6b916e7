// Builds one example app with Vite, the way its users would, into `outDir`. The app resolves
// 'payroll-link' to test/packaging/node_modules/payroll-link (the packed tarball, extracted).
import { fileURLToPath } from 'node:url';
import vue from '@vitejs/plugin-vue';
import { build, type InlineConfig, type Rollup } from 'vite';

/** The example apps built with Vite (the plain HTML page needs no build). */
export type ViteApp = 'react-18' | 'react-19' | 'react-strict' | 'vue-3';

const appsDir = fileURLToPath(new URL('./apps/', import.meta.url));

/** React's automatic JSX runtime, as a React app's Vite config gets it. */
const reactJsx: InlineConfig = { oxc: { jsx: { runtime: 'automatic', importSource: 'react' } } };

const configs: Record<ViteApp, InlineConfig> = {
  // React 18 is installed beside React 19 as the npm aliases react-18 and react-dom-18: every
  // import of react / react-dom (the app's, @lit/react's, react-dom's own) goes to them.
  'react-18': {
    ...reactJsx,
    resolve: {
      alias: [
        { find: /^react(\/.*)?$/, replacement: 'react-18$1' },
        { find: /^react-dom(\/.*)?$/, replacement: 'react-dom-18$1' },
      ],
    },
  },
  'react-19': reactJsx,
  // StrictMode double-invokes effects only in React's development build.
  'react-strict': { ...reactJsx, mode: 'development', define: { 'process.env.NODE_ENV': JSON.stringify('development') } },
  // The docs' Vue setup: Vue compiles templates at build time, so it learns there that the tag is a custom element.
  'vue-3': {
    plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'payroll-link' } } })],
  },
};

/** What a build produced: the module ids that went into it, to check where payroll-link came from. */
export interface AppBuild {
  outDir: string;
  moduleIds: string[];
}

/** Builds `app` into `outDir` (emptied first). */
export async function buildApp(app: ViteApp, outDir: string): Promise<AppBuild> {
  const result = await build({
    ...configs[app],
    root: `${appsDir}${app}`,
    configFile: false,
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, minify: app !== 'react-strict' },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const moduleIds = outputs.flatMap((output) => output.output.flatMap((item) => (item.type === 'chunk' ? item.moduleIds : [])));
  return { outDir, moduleIds };
}
