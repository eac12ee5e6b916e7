/**
 * Bench 7, bundle sizes. Our figures come from the project's own size check
 * (`npm run build:package`, then `scripts/check-sizes.ts`, run as they are).
 * Beside them, the peers' npm loaders that install here, bundled with esbuild
 * (minified ESM, ES2022, no legal comments, gzip level 9; no code splitting, so
 * a lazy chunk counts in) with React external for all, and our React wrapper
 * the same way.
 * Peers also load a remote script or page at run time, which cannot be
 * measured offline; nor can our hosted Link page's own code, which is the
 * equivalent on our side.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { fromRoot } from './lib/bundle.js';
import { printTable, printTarget, writeResult } from './lib/report.js';

interface Entry {
  name: string;
  /** What an app writes. */
  code: string;
  /** The package whose installed version is reported. */
  pkg: string;
  /** What else it loads at run time, unmeasured. */
  remote: string;
}

const ENTRIES: Entry[] = [
  {
    name: 'payroll-link/react (ours)',
    code: "export { PayrollLink } from './dist/react.js';",
    pkg: 'payroll-link',
    remote: 'the hosted Link page in the frame (not a script in the host page)',
  },
  {
    name: 'react-plaid-link',
    code: "export { usePlaidLink } from 'react-plaid-link';",
    pkg: 'react-plaid-link',
    remote: 'cdn.plaid.com/link/v2/stable/link-initialize.js in the host page, then its frame',
  },
  {
    name: '@atomicfi/transact-javascript',
    code: "export { Atomic } from '@atomicfi/transact-javascript';",
    pkg: '@atomicfi/transact-javascript',
    remote: 'transact.atomicfi.com in a frame',
  },
  {
    name: '@pinwheel/react-modal',
    code: "export { default } from '@pinwheel/react-modal';",
    pkg: '@pinwheel/react-modal',
    remote: "Pinwheel's CDN script in the host page, then its frame",
  },
];

const root = fromRoot('.');
const require = createRequire(`${root}package.json`);
const gzip = (code: Uint8Array) => gzipSync(code, { level: 9 }).length;

/** One esbuild bundle, minified, React left external (every app has its own). */
async function measure(code: string): Promise<{ raw: number; gzip: number }> {
  const result = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    external: ['react', 'react-dom', 'react/jsx-runtime'],
  });
  const output = result.outputFiles[0]!.contents;
  return { raw: output.length, gzip: gzip(output) };
}

function installedVersion(pkg: string): string | null {
  if (pkg === 'payroll-link') return (require('./package.json') as { version: string }).version;
  try {
    return (require(`${pkg}/package.json`) as { version: string }).version;
  } catch {
    return null;
  }
}

// 1. The project's size check, as `npm run size` runs it (it needs dist/ from build:package).
execFileSync('npm', ['run', '--silent', 'build:package'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
let sizeCheckOk = true;
let sizeTable = '';
try {
  sizeTable = execFileSync('npx', ['tsx', 'scripts/check-sizes.ts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
} catch (error) {
  sizeCheckOk = false;
  sizeTable = String((error as { stdout?: string }).stdout ?? '');
}
const ours = [...sizeTable.matchAll(/^\| (\([a-z]\) [^|]+?) \| (.+?) \| ([\d.]+) kB \| ([\d.]+) kB \|$/gm)].map((m) => ({
  name: m[1]!,
  what: m[2]!,
  gzipKB: Number(m[3]),
  budgetKB: Number(m[4]),
}));

// 2. The peers, and our React wrapper, bundled the same way.
const peers = [];
for (const entry of ENTRIES) {
  const version = installedVersion(entry.pkg);
  if (version === null) {
    peers.push({
      ...entry,
      version: null,
      raw: null,
      gzip: null,
      note: 'not installed: npm install fails (its peer range stops at React 18; this repo uses React 19)',
    });
    continue;
  }
  const size = await measure(entry.code);
  peers.push({ ...entry, version, ...size, note: '' });
}

printTable(
  'Our size check (npm run size), gzip',
  ours.map((o) => ({ figure: o.name, what: o.what, 'gzip kB': o.gzipKB, 'budget kB': o.budgetKB })),
);
printTable(
  'Loaders bundled the same way (minified ESM, React external), gzip',
  peers.map((p) => ({
    loader: p.name,
    version: p.version ?? '-',
    'raw kB': p.raw === null ? '-' : (p.raw / 1000).toFixed(1),
    'gzip kB': p.gzip === null ? '-' : (p.gzip / 1000).toFixed(1),
    'loads at run time (unmeasured)': p.note || p.remote,
  })),
);
printTarget(
  'size check passes its budgets',
  sizeCheckOk,
  sizeCheckOk ? `${ours.length} figures within budget` : 'see the size check output',
);
const file = await writeResult('bundle-size', {
  method: 'esbuild stdin bundle, minify, format esm, target es2022, legalComments none, gzip level 9; React external for loaders',
  sizeCheck: { command: 'npm run build:package && npx tsx scripts/check-sizes.ts', passed: sizeCheckOk, figures: ours },
  loaders: peers,
  targets: [{ name: 'size check passes its budgets', met: sizeCheckOk }],
});
console.log(`wrote ${file}`);
