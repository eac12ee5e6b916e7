// Server code refused in browser bundles: `payroll-link/server` and `payroll-link/server/node` have
// a `browser` export condition whose module cannot be bundled, so a client-side import fails the
// build with one sentence (instead of building, shipping server strings and crashing at hydration),
// while server builds of the same imports still work. From the packed package, with the bundlers
// users have: Vite (browser and SSR builds) and Next.js (`next build`: a 'use client' component
// refused; route handlers built). Needs install-toolchains.ts and install-packed.ts first.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { build as esbuild, type BuildFailure } from 'esbuild';
import { build, type Plugin, type Rollup } from 'vite';
import { docsSnippet } from './docs-snippet.js';
import { frameworksPackageDir, installedPackageDir } from './install-packed.js';

/** The sentence the refusal prints (the start of it; src/server/browser-refusal.ts has it whole). */
const REFUSAL = 'payroll-link/server runs on your server only: import it from server code';
/** Its end: how to find the importing file where the bundler's error names only the refusal module. */
const HOW_TO_FIND = 'search your browser code for payroll-link/server';

const packagingDir = fileURLToPath(new URL('./', import.meta.url));
const frameworksDir = `${packagingDir}frameworks/`;
/** Scratch apps live inside test/packaging (and frameworks/), so that 'payroll-link' resolves to the packed copy there. */
const scratch: string[] = [];

after(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function scratchDir(parent: string): Promise<string> {
  const dir = `${parent}scratch-server-in-browser-${randomUUID()}/`;
  scratch.push(dir);
  await mkdir(dir, { recursive: true });
  return dir;
}

/** A page script that imports `entry` (as a component file that should not would). */
const clientImport = (entry: string, name: string) => `import { ${name} } from '${entry}';\nconsole.log(${name});\n`;

describe('Vite', () => {
  for (const [entry, name] of [
    ['payroll-link/server', 'createLinkTokenHandler'],
    // The service's client (docs/reading-data.md) holds the API secret: a page must not get it either.
    ['payroll-link/server', 'createPayrollClient'],
    ['payroll-link/server/node', 'toNodeHandler'],
    ['payroll-link/server/redis', 'redisEventStore'],
  ] as const) {
    test(`a browser build that imports ${name} from ${entry} fails with the sentence`, async () => {
      assert.ok(existsSync(`${installedPackageDir}/package.json`), 'run `npm run test:packaging` (it installs the packed package first)');
      const dir = await scratchDir(packagingDir);
      await writeFile(`${dir}index.html`, '<!doctype html><script type="module" src="./main.js"></script>\n');
      await writeFile(`${dir}main.js`, clientImport(entry, name));
      await assert.rejects(
        build({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: `${dir}dist`, write: false } }),
        (error: Error) => error.message.includes(REFUSAL),
      );
    });
  }

  test('the error names the file that imported the server entry, through its chain of imports', async () => {
    const dir = await scratchDir(packagingDir);
    await writeFile(`${dir}index.html`, '<!doctype html><script type="module" src="./main.js"></script>\n');
    await writeFile(`${dir}main.js`, clientImport('./widget.js', 'createLinkTokenHandler'));
    await writeFile(`${dir}widget.js`, "export { createLinkTokenHandler } from 'payroll-link/server';\n");
    await assert.rejects(
      build({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: `${dir}dist`, write: false } }),
      (error: Error) => {
        assert.match(error.message, /imported by the following path:[^]*- \S*\/widget\.js\n[^]*- \S*\/main\.js\n/);
        return true;
      },
    );
  });

  test("under Nuxt's resolver too, the error names the importing file through its chain of imports", async () => {
    // What Nuxt adds to Vite (@nuxt/vite-builder 4.5's nuxt:resolve-bare-imports, here in its few lines): an import
    // that no other plugin resolved, made by a file inside node_modules, is resolved again from the node_modules
    // folder, its leading './' dropped (pathe's normalize). The refusal's import must stay unresolved there (null),
    // so that it is Rolldown's own error with the chain, not a plugin's error thrown from inside this.resolve
    // ("is not exported under the conditions") with none: what a real Nuxt 4.5.2 build printed before.
    const nuxtResolveBareImports: Plugin = {
      name: 'nuxt-resolve-bare-imports-as-nuxt-4-5',
      enforce: 'post',
      async resolveId(id, importer) {
        if (id.startsWith('/') || id.startsWith('\0') || !importer?.startsWith('/')) return undefined;
        const nodeModules = /^(.+\/node_modules\/)/.exec(importer)?.[1];
        if (nodeModules === undefined) return undefined;
        return (await this.resolve(id.replace(/^\.\//, ''), nodeModules, { skipSelf: true })) ?? null;
      },
    };
    const dir = await scratchDir(packagingDir);
    await writeFile(`${dir}index.html`, '<!doctype html><script type="module" src="./main.js"></script>\n');
    await writeFile(`${dir}main.js`, clientImport('./widget.js', 'createLinkTokenHandler'));
    await writeFile(`${dir}widget.js`, "export { createLinkTokenHandler } from 'payroll-link/server';\n");
    await assert.rejects(
      build({
        root: dir,
        configFile: false,
        logLevel: 'silent',
        plugins: [nuxtResolveBareImports],
        build: { outDir: `${dir}dist`, write: false },
      }),
      (error: Error) => {
        assert.ok(error.message.includes(REFUSAL), error.message);
        assert.match(error.message, /imported by the following path:[^]*- \S*\/widget\.js\n[^]*- \S*\/main\.js\n/);
        return true;
      },
    );
  });

  test('an SSR build of the same imports builds, without the refusal', async () => {
    const dir = await scratchDir(packagingDir);
    await writeFile(
      `${dir}server.js`,
      "import { createLinkTokenHandler, createPayrollClient } from 'payroll-link/server';\nimport { toNodeHandler } from 'payroll-link/server/node';\nexport { createLinkTokenHandler, createPayrollClient, toNodeHandler };\n",
    );
    // noExternal: bundle the package, so that the build resolves its entries itself (the conditions under test).
    const result = (await build({
      root: dir,
      configFile: false,
      logLevel: 'silent',
      ssr: { noExternal: ['payroll-link'] },
      build: { ssr: `${dir}server.js`, outDir: `${dir}dist`, write: false },
    })) as Rollup.RollupOutput;
    const code = result.output.map((item) => (item.type === 'chunk' ? item.code : '')).join('\n');
    assert.match(code, /function createLinkTokenHandler/);
    assert.match(code, /function createPayrollClient/);
    assert.doesNotMatch(code, /runs on your server only/);
  });
});

describe('esbuild', () => {
  test('a browser bundle that imports payroll-link/server fails with the sentence, which says how to find the importer esbuild does not name', async () => {
    const dir = await scratchDir(packagingDir);
    await writeFile(`${dir}main.js`, clientImport('payroll-link/server', 'createLinkTokenHandler'));
    await assert.rejects(
      esbuild({ entryPoints: [`${dir}main.js`], bundle: true, platform: 'browser', write: false, logLevel: 'silent' }),
      (failure: BuildFailure) => {
        const [error] = failure.errors;
        assert.ok(error?.text.includes(REFUSAL) && error.text.includes(HOW_TO_FIND), error?.text);
        // What the sentence is for: esbuild points at the refusal module, not at main.js.
        assert.match(error.location?.file ?? '', /payroll-link\/dist\/server\/browser-refusal\.js$/);
        return true;
      },
    );
  });
});

describe('Next.js', () => {
  /** Runs `next build` in `dir`; its exit code and output. */
  function nextBuild(dir: string): { status: number; output: string } {
    try {
      const output = execFileSync(process.execPath, [`${frameworksDir}node_modules/next/dist/bin/next`, 'build'], {
        cwd: dir,
        env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
        encoding: 'utf8',
        stdio: 'pipe',
        timeout: 600_000, // a bound on a hang, not a guess at how long: a shared machine has been seen at 4 min for one build
      });
      return { status: 0, output };
    } catch (error) {
      const { status, stdout, stderr } = error as { status: number; stdout?: string; stderr?: string };
      return { status, output: `${stdout ?? ''}\n${stderr ?? ''}` };
    }
  }

  test("a 'use client' component that imports payroll-link/server fails next build with the sentence; the route handlers beside it built", async () => {
    assert.ok(
      existsSync(`${frameworksPackageDir}/package.json`),
      'run `npm run test:packaging` (it installs the framework apps and the packed package first)',
    );
    // The same app twice: with the client import it must fail, without it build. Its next.config is the
    // docs' (docs/nextjs.md: the webhook route left out of the request log) over the frameworks' app's.
    const dir = await scratchDir(frameworksDir);
    await copyFile(`${frameworksDir}next/tsconfig.json`, `${dir}tsconfig.json`);
    await copyFile(`${frameworksDir}next/next.config.mjs`, `${dir}frameworks.next.config.mjs`);
    await writeFile(
      `${dir}docs.next.config.mjs`,
      await docsSnippet('docs/nextjs.md', "Keep the webhook secret out of `next dev`'s log", 'js'),
    );
    await writeFile(
      `${dir}next.config.mjs`,
      "import docs from './docs.next.config.mjs';\nimport frameworks from './frameworks.next.config.mjs';\n\nexport default { ...frameworks, ...docs };\n",
    );
    await mkdir(`${dir}app/api/link-token`, { recursive: true });
    await mkdir(`${dir}app/api/webhooks`, { recursive: true });
    await writeFile(
      `${dir}app/layout.tsx`,
      'import type { ReactNode } from \'react\';\n\nexport default function RootLayout({ children }: { children: ReactNode }) {\n  return (\n    <html lang="en">\n      <body>{children}</body>\n    </html>\n  );\n}\n',
    );
    // The backend as the docs write it, and its routes: server code, which must build.
    await writeFile(
      `${dir}payroll.ts`,
      "import { createLinkTokenHandler, createWebhookHandler } from 'payroll-link/server';\n\n" +
        "export const handleLinkToken = createLinkTokenHandler({ apiSecret: 'sandbox_x', baseUrl: 'http://127.0.0.1:4010', version: '2025-07-08', orgName: 'Acme', solution: 'Deposit Switch', features: ['direct_deposit_switch'] });\n" +
        "export const handleWebhook = createWebhookHandler({ secret: '0123456789abcdef0123', onEvent: () => {} });\n",
    );
    await writeFile(
      `${dir}app/api/link-token/route.ts`,
      "import { handleLinkToken } from '../../../payroll';\n\nexport const POST = handleLinkToken;\n",
    );
    await writeFile(
      `${dir}app/api/webhooks/route.ts`,
      "import { handleWebhook } from '../../../payroll';\n\nexport const POST = handleWebhook;\n",
    );
    await writeFile(`${dir}app/page.tsx`, 'export default function Page() {\n  return <main>server only</main>;\n}\n');
    const clean = nextBuild(dir);
    assert.equal(clean.status, 0, clean.output);
    assert.doesNotMatch(clean.output, /Invalid next\.config/, "next build takes the docs' next.config as valid");
    const built = await readdir(`${dir}.next/server/app/api/link-token`).catch(() => []);
    assert.ok(built.length > 0, 'the link-token route handler was built');

    // The new user's mistake: the file that creates the handlers, imported from a client component.
    await writeFile(
      `${dir}app/connect.tsx`,
      "'use client';\n\nimport { handleLinkToken } from '../payroll';\n\nexport function Connect() {\n  return <button onClick={() => console.log(handleLinkToken)}>Connect</button>;\n}\n",
    );
    await writeFile(
      `${dir}app/page.tsx`,
      "import { Connect } from './connect';\n\nexport default function Page() {\n  return <Connect />;\n}\n",
    );
    await rm(`${dir}.next`, { recursive: true, force: true });
    const refused = nextBuild(dir);
    assert.notEqual(refused.status, 0, 'next build refused the client import');
    assert.ok(refused.output.includes(REFUSAL), refused.output);
    // And the file of the app's that imported it, in the import trace under the error.
    assert.match(refused.output, /\/app\/connect\.tsx \[Client Component Browser\]/, refused.output);
  });
});
