// The cost of a change, measured (#50): each scenario makes one change the way a maintainer would (the row in its
// table, and only what cannot be derived from it), in a temporary copy of the working tree, type-checks the copy, runs
// the change's tests there and counts the files it touched (the copy's `git status`: tests, CHANGELOG and regenerated
// pages included). `docs/architecture.md` states each count in a table ("What a change touches"); `--check` fails
// when a count is above it, `--write` writes the measured counts there. `--scenario <id>` (repeatable) runs only
// those, `--keep` leaves the copies on disk to look at. Run with `npx tsx scripts/cost-of-change.ts`.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = fileURLToPath(new URL('..', import.meta.url));

/** The page that states each count, and the section that holds its table. */
export const COUNTS_PAGE = 'docs/architecture.md';
const COUNTS_SECTION = '## What a change touches';

/**
 * One edit of a scenario, in one file. An anchor is a stable line or phrase of that file: it must occur exactly
 * once, or the scenario stops with the file and the anchor it did not find (the file changed: move the anchor).
 */
export type Edit =
  /** Writes `text` right after `after`. */
  | { readonly file: string; readonly after: string; readonly text: string }
  /** Writes `text` right before `before`. */
  | { readonly file: string; readonly before: string; readonly text: string }
  /** Writes `text` in place of `replace`. */
  | { readonly file: string; readonly replace: string; readonly text: string }
  /** Adds `text` at the end of the file. */
  | { readonly file: string; readonly append: string }
  /** Writes a new file (it must not exist yet). */
  | { readonly file: string; readonly create: string };

/** One change, as the table of `docs/architecture.md` names it. */
export interface Scenario {
  /** Its key in the docs' table (the "Scenario" column). */
  readonly id: string;
  /** What it changes, as the docs' table says it. */
  readonly change: string;
  readonly edits: readonly Edit[];
  /** Commands run in the copy after the edits, each as argv: what regenerates a generated page the change moves. */
  readonly regenerate?: readonly (readonly string[])[];
  /** The tests that show the change works (node test files, run with `node --import tsx --test`). */
  readonly tests: readonly string[];
}

/** What one scenario did in its copy. */
export interface Measured {
  readonly id: string;
  /** The files the change touched, as `git status` names them. */
  readonly files: readonly string[];
  /** Why the copy does not type-check or its tests fail; empty when both pass. */
  readonly failures: readonly string[];
}

/** `text` with `edit` made; throws, naming the file and the anchor, when the anchor is not there exactly once. */
export function applyEdit(text: string, edit: Edit): string {
  if ('append' in edit) return `${text.trimEnd()}\n${edit.append}`;
  if ('create' in edit) throw new Error(`${edit.file}: a file to create is not edited`);
  const anchor = 'after' in edit ? edit.after : 'before' in edit ? edit.before : edit.replace;
  const at = text.indexOf(anchor);
  if (at === -1) throw new Error(`${edit.file}: the anchor is not there (the file changed: move the anchor):\n${anchor}`);
  if (text.indexOf(anchor, at + 1) !== -1) throw new Error(`${edit.file}: the anchor is there more than once:\n${anchor}`);
  if ('after' in edit) return `${text.slice(0, at + anchor.length)}${edit.text}${text.slice(at + anchor.length)}`;
  if ('before' in edit) return `${text.slice(0, at)}${edit.text}${text.slice(at)}`;
  return `${text.slice(0, at)}${edit.text}${text.slice(at + anchor.length)}`;
}

/** The CHANGELOG line of a scenario, under "Unreleased". */
const changelog = (line: string): Edit => ({ file: 'CHANGELOG.md', after: '## Unreleased\n\n', text: `${line}\n` });

/** Rewrites the method table of docs/reading-data.md, as `npm run docs:reference` does (its other pages need a build). */
const REGENERATE_METHOD_TABLE = [
  'node',
  '--import',
  'tsx',
  '--eval',
  "const { endpointTable, ENDPOINTS_PAGE } = await import('./scripts/docs-endpoints.ts');" +
    "const { updateMarkdownSection } = await import('./scripts/markdown-section.ts');" +
    "await updateMarkdownSection(ENDPOINTS_PAGE, 'endpoints', endpointTable(), false);",
] as const;

/**
 * A webhook event the service adds: its payload schema and its entry in the receiver's union (the row), and its
 * trigger in the sandbox (where it is sent: the sandbox has no pay run to send it on its own). The sandbox's exact
 * form of it, what the spec promises of it, the CLI's help and the test that fires every event follow.
 */
const WEBHOOK_EVENT: Scenario = {
  id: 'webhook-event',
  change: 'A new webhook event type (`direct_deposit.switched`)',
  edits: [
    {
      file: 'src/server/webhooks/webhook-events.ts',
      before: 'const event = <N extends string',
      text: `/** \`direct_deposit.switched\`: a deposit switch took effect; the pay now goes where \`allocation\` says. */
export const DirectDepositSwitchedPayloadSchema = z.looseObject({
  account_id: id(),
  job_id: id(),
  /** How much of the pay moves: \`type\` (\`amount\`, \`percentage\`, \`remainder\`) and, but for the remainder, \`value\`. */
  allocation: z.looseObject({ type: z.string().min(1), value: z.number().nullable().optional() }),
});

`,
    },
    {
      file: 'src/server/webhooks/webhook-events.ts',
      before: ']);\n\n/** A known event, typed by its name',
      text: "  event('direct_deposit.switched', DirectDepositSwitchedPayloadSchema),\n",
    },
    {
      file: 'sandbox/api/triggers-api.ts',
      after: 'const triggers: Record<SandboxWebhookEventName, (input: TriggerInput) => SandboxWebhookEvent[]> = {\n',
      text: `    'direct_deposit.switched': (input) => {
      // A switch takes effect at the platform's next pay run, which the sandbox does not have: the trigger switches
      // the remainder now and sends the event at once.
      const record = accountFor(input);
      requireSupport(record, 'direct_deposit_switch');
      requireConnected(record.account);
      const params = { allocation_type: 'remainder', allocation_value: null };
      const job = store.addJob({ name: 'direct_deposit_switch', accountId: record.account.id, linkTokenId: null, params }, true);
      store.finishJob(job, { status: 'success' });
      const allocation = { type: 'remainder', value: null };
      return [deps.emit('direct_deposit.switched', { account_id: record.account.id, job_id: job.job.id, allocation })];
    },
`,
    },
    {
      file: 'test/node/sandbox-triggers.test.ts',
      append: `
describe('sandbox triggers: direct_deposit.switched', () => {
  it('switches the remainder of the pay of a payroll account and sends the event with its job', async () => {
    await withSandbox({ jobDelayMs: 3_600_000 }, async (sandbox) => {
      const { account } = await createAccount(sandbox);
      const [switched] = sentEvents(sandbox, await trigger(sandbox, { event: 'direct_deposit.switched', account_id: account.id }));
      const payload = switched!.payload as { account_id: string; job_id: string; allocation: unknown };
      assert.equal(payload.account_id, account.id);
      assert.deepEqual(payload.allocation, { type: 'remainder', value: null });
      const job = await api(sandbox, 'GET', \`/v1/jobs/\${payload.job_id}\`);
      assert.equal(job.body.data.name, 'direct_deposit_switch');
      assert.equal(job.body.data.status, 'success');
      const clock = await createAccount(sandbox, { platform_id: platformOfType(sandbox, 'time_and_attendance').id });
      assertError(await trigger(sandbox, { event: 'direct_deposit.switched', account_id: clock.account.id }), 400, 'PRODUCT_NOT_SUPPORTED');
    });
  });
});
`,
    },
    changelog(
      '- Added (server, sandbox): the `direct_deposit.switched` webhook event (`DirectDepositSwitchedPayloadSchema`): a deposit switch took effect; the sandbox sends it on `trigger direct_deposit.switched`.',
    ),
  ],
  tests: [
    'test/node/sandbox-triggers.test.ts',
    'test/node/server-webhook-events-sandbox.test.ts',
    'test/node/sandbox-cli-commands.test.ts',
    'test/node/sandbox-spec-fields.test.ts',
  ],
};

/**
 * A paginated read of a resource the client does not have yet: its row, the resource's schema written in it (a
 * resource only this row answers), the sandbox's data. The client's method and its types, the sandbox's route, its
 * exact form and what the spec promises of it in `fields: 'spec'`, the method table of docs/reading-data.md
 * (regenerated here) and the test that reads every row follow.
 */
const PAGINATED_READ: Scenario = {
  id: 'paginated-read',
  change: 'A new paginated read of a new resource (`accounts.deductions`)',
  edits: [
    {
      file: 'src/server/client/payroll-api-endpoints.ts',
      before: '  },\n  jobs: {\n',
      text: `    /** \`GET /v1/accounts/{id}/deductions\`: the account's standing deductions (benefits, retirement plans). */
    deductions: {
      method: 'GET',
      path: '/v1/accounts/{id}/deductions',
      pathParams: { id: ACCOUNT_ID },
      query: PageParamsSchema,
      answer: z.looseObject({
        id: z.uuid(),
        account_id: z.string().optional(),
        name: z.string().optional(),
        category: z.string().optional(),
        amount: z.number().optional(),
        currency: z.string().optional(),
        created_at: z.string().optional(),
      }),
      returns: 'list',
      retryAfterSend: true,
    },
`,
    },
    {
      file: 'sandbox/state/payroll-data.ts',
      replace: '  return { employment, income, paystubs, shifts };',
      text: `  // The same two standing deductions on every account, in amounts of its own.
  const deductions = [
    { name: 'Health insurance', category: 'benefit', amount: random.int(5000, 20000) },
    { name: '401(k)', category: 'retirement', amount: random.int(10000, 50000) },
  ].map((line) => ({ id: random.uuid(), account_id: account.id, ...line, currency: 'USD', created_at: createdAt }));
  return { employment, income, paystubs, shifts, deductions };`,
    },
    {
      file: 'test/node/sandbox-accounts.test.ts',
      append: `
describe("sandbox: an account's deductions", () => {
  it('lists them a page at a time, each of the account', async () => {
    const sandbox = await startTestSandbox();
    try {
      const { accountId } = await connectAccount(sandbox, { endUserId: 'deductions-user' });
      const first = await api(sandbox, 'GET', \`/v1/accounts/\${accountId}/deductions?limit=1\`);
      assert.equal(first.status, 200, first.text);
      const cursor = encodeURIComponent(first.body.meta.next_cursor);
      const rest = await api(sandbox, 'GET', \`/v1/accounts/\${accountId}/deductions?cursor=\${cursor}\`);
      assert.equal(rest.body.meta.next_cursor, null);
      const all = [...first.body.data, ...rest.body.data] as { name: string; account_id: string }[];
      assert.deepEqual(
        all.map((deduction) => deduction.name),
        ['Health insurance', '401(k)'],
      );
      for (const deduction of all) assert.equal(deduction.account_id, accountId);
    } finally {
      await sandbox.close();
    }
  });
});
`,
    },
    changelog(
      "- Added (server, sandbox): `accounts.deductions(id, { limit?, cursor? })`, `GET /v1/accounts/{id}/deductions`: an account's standing deductions, a page at a time.",
    ),
  ],
  regenerate: [REGENERATE_METHOD_TABLE],
  tests: ['test/node/sandbox-accounts.test.ts', 'test/node/client-resource-schemas.test.ts', 'test/node/sandbox-spec-fields.test.ts'],
};

/** Rewrites the element reference of docs/reference.md, as `npm run docs:reference` does, from a manifest of the copy's sources. */
const REGENERATE_ELEMENT_REFERENCE = [
  ['node_modules/.bin/cem', 'analyze', '--quiet'],
  ['node', '--import', 'tsx', 'scripts/docs-reference.ts'],
] as const;

/**
 * An event of the element that a Link page's event brings (the sandbox's Link page sends `select_employer` already):
 * its row. The session relays it, the element fires it and calls its callback property, React, React Native, the
 * launch page and the bridge, the typings, the manifest and the element reference follow.
 */
const ELEMENT_EVENT: Scenario = {
  id: 'element-event',
  change: 'A new element event (`link-select-employer`)',
  edits: [
    {
      file: 'src/protocol/element-events.ts',
      before: '} as const satisfies Record<',
      text: `  /** The user picked their employer in the search: its id and name, as the Link page's \`select_employer\`. */
  'link-select-employer': { callback: 'onSelectEmployer', linkEvent: 'select_employer' },
`,
    },
    {
      file: 'test/node/select-employer-event.test.ts',
      create: `import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LinkCallbacks } from '../../src/core/link-options.js';
import type { PayrollLinkEventMap } from '../../src/element/events.js';
import type { PayrollLinkViewProps } from '../../src/frameworks/react-native.js';
import { createLaunchBridgeSender, parseLaunchBridgeMessage } from '../../src/launch-bridge.js';

test('link-select-employer: the Link page\\'s select_employer, typed for the element, the callbacks and the bridge', () => {
  const detail = { selectedEmployerId: crypto.randomUUID(), selectedEmployerName: 'Acme' };
  const page = createLaunchBridgeSender('https://launch.example/l#payroll-link-bridge=0123456789abcdef0123456789abcdef');
  assert.deepEqual(parseLaunchBridgeMessage(page('link-select-employer', detail))?.detail, detail);
  assert.equal(parseLaunchBridgeMessage(page('link-select-employer', { selectedEmployerName: 'Acme' } as never)), null);
  const seen: string[] = [];
  const onSelectEmployer: NonNullable<LinkCallbacks['onSelectEmployer']> = (picked) => seen.push(picked.selectedEmployerName);
  const view: Pick<PayrollLinkViewProps, 'onSelectEmployer'> = { onSelectEmployer };
  view.onSelectEmployer?.(detail);
  const event: PayrollLinkEventMap['link-select-employer'] = new CustomEvent('link-select-employer', { detail });
  onSelectEmployer(event.detail);
  assert.deepEqual(seen, ['Acme', 'Acme']);
});
`,
    },
    changelog(
      "- Added (element, core, react, react-native): the `link-select-employer` event and `onSelectEmployer` callback: the user picked their employer in the Link page's search (`{ selectedEmployerId, selectedEmployerName }`).",
    ),
  ],
  regenerate: REGENERATE_ELEMENT_REFERENCE,
  tests: ['test/node/select-employer-event.test.ts', 'test/node/launch-bridge.test.ts', 'test/node/session-moves.test.ts'],
};

/**
 * An option of the element that the Link page is told: its row, and what the sandbox's Link page does with it. The
 * element's property and attribute, the hand-over to the session, `openLink()`'s option, the init message's field,
 * the typings, the manifest and the element reference follow.
 */
const ELEMENT_OPTION: Scenario = {
  id: 'element-option',
  change: 'A new element option the Link page is told (`theme-accent`)',
  edits: [
    {
      file: 'src/protocol/element-options.ts',
      before: '} as const satisfies Record<string, ElementOptionRow>;',
      text: `  /** The accent colour of the Link page's controls (a CSS colour, such as \`#0f766e\`); the Link page is told it. Unset: its own. */
  themeAccent: { attribute: 'theme-accent', session: true, linkPage: true, value: undefined as string | undefined },
`,
    },
    {
      file: 'sandbox/link-page/app/link-app.ts',
      after: '    document.documentElement.dataset.colorScheme = colorScheme;\n',
      text: `    // The accent colour the widget asked for (\`theme-accent\`), over the palette's.
    const { themeAccent } = this.#flow.frame;
    if (themeAccent) this.style.setProperty('--link-accent', themeAccent);
`,
    },
    {
      file: 'test/node/theme-accent-option.test.ts',
      create: `import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { OpenLinkOptions } from '../../src/core/link-options.js';
import { PayrollLink } from '../../src/element/payroll-link.js';
import { InitMessageSchema, PROTOCOL_VERSION } from '../../src/protocol.js';

test('theme-accent: the element\\'s attribute, openLink()\\'s option, and the init message\\'s field', () => {
  assert.equal(PayrollLink.properties.themeAccent.attribute, 'theme-accent');
  const options: Pick<OpenLinkOptions, 'themeAccent'> = { themeAccent: '#0f766e' };
  const init = { type: 'payroll-link:init', version: PROTOCOL_VERSION, token: 't', ...options };
  assert.equal(InitMessageSchema.parse(init).themeAccent, '#0f766e');
  assert.equal(InitMessageSchema.safeParse({ ...init, themeAccent: 42 }).success, false);
});
`,
    },
    changelog(
      "- Added (element, core): the `theme-accent` attribute (`themeAccent`, also an `openLink()` option): the accent colour of the Link page's controls, which the Link page is told.",
    ),
  ],
  regenerate: REGENERATE_ELEMENT_REFERENCE,
  tests: ['test/node/theme-accent-option.test.ts', 'test/node/link-page.test.ts'],
};

/** Every scenario, in the order of the docs' table. */
export const SCENARIOS: readonly Scenario[] = [ELEMENT_EVENT, ELEMENT_OPTION, PAGINATED_READ, WEBHOOK_EVENT];

/** Runs `argv` in `cwd`; resolves with its output, or with why it failed. */
async function step(cwd: string, argv: readonly string[]): Promise<{ ok: boolean; output: string }> {
  const [command, ...args] = argv;
  try {
    const { stdout, stderr } = await run(command!, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, CI: '' } });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${stdout}${stderr}` || message };
  }
}

/** The last lines of a command's output: enough to see why it failed. */
const tail = (output: string, lines = 40) => output.trimEnd().split('\n').slice(-lines).join('\n');

/** Type errors, one a line, as `tsc` prints them. */
const typeErrors = (output: string) => new Set(output.split('\n').filter((line) => /error TS\d+/.test(line)));

/**
 * A copy of the working tree at `from` (what git tracks and what it would add, as it is on disk now) in a new git
 * repository of its own, with one commit, so that `git status` there names what a change touches.
 */
async function copyOfTree(from: string): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), 'cost-of-change-'));
  const copy = join(base, 'repo');
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: from,
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = [...new Set(stdout.split('\0').filter(Boolean))].filter((file) => existsSync(join(from, file)));
  for (const file of files) {
    await mkdir(dirname(join(copy, file)), { recursive: true });
    await cp(join(from, file), join(copy, file), { verbatimSymlinks: true });
  }
  await symlink(join(from, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // Beside the repository, as on the project's machines: the service's spec, which a test reads (../shared/spec).
  if (existsSync(join(from, '..', 'shared'))) await symlink(resolve(from, '..', 'shared'), join(base, 'shared'), 'dir');
  const git = ['-c', 'user.name=cost-of-change', '-c', 'user.email=cost-of-change@localhost', '-c', 'commit.gpgsign=false'];
  await run('git', ['init', '-q'], { cwd: copy });
  await run('git', ['add', '-A'], { cwd: copy, maxBuffer: 64 * 1024 * 1024 });
  await run('git', [...git, 'commit', '-q', '--no-verify', '-m', 'the working tree'], { cwd: copy, maxBuffer: 64 * 1024 * 1024 });
  return copy;
}

/** The files `git status` names in `copy`: changed, added and new (each file of a new folder). */
async function touched(copy: string): Promise<string[]> {
  const { stdout } = await run('git', ['status', '--porcelain', '--untracked-files=all', '-z'], { cwd: copy });
  return stdout
    .split('\0')
    .filter(Boolean)
    .map((entry) => entry.slice(3))
    .sort();
}

/**
 * Makes `scenario` in a copy of the working tree at `from`: its edits, then its regenerating commands, Prettier on
 * what it touched (a maintainer's editor formats on save), the type check and its tests.
 */
export async function measure(scenario: Scenario, from = root, keep = false): Promise<Measured> {
  const copy = await copyOfTree(from);
  const failures: string[] = [];
  try {
    try {
      for (const edit of scenario.edits) {
        const path = join(copy, edit.file);
        if ('create' in edit) {
          if (existsSync(path)) throw new Error(`${edit.file}: the file to create is there already`);
          await mkdir(dirname(path), { recursive: true });
          await writeFile(path, edit.create);
        } else {
          await writeFile(path, applyEdit(await readFile(path, 'utf8'), edit));
        }
      }
    } catch (error) {
      return {
        id: scenario.id,
        files: [],
        failures: [`its edits cannot be made: ${error instanceof Error ? error.message : String(error)}`],
      };
    }
    for (const argv of scenario.regenerate ?? []) {
      const result = await step(copy, argv);
      if (!result.ok) failures.push(`${argv.join(' ')} failed:\n${tail(result.output)}`);
    }
    const files = await touched(copy);
    await step(copy, [join(copy, 'node_modules/.bin/prettier'), '--write', '--ignore-unknown', ...files]);
    const tsc = [process.execPath, join(copy, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json', '--noEmit'];
    const typecheck = await step(copy, tsc);
    if (!typecheck.ok) {
      // A working tree in the middle of other work may not type-check by itself: only the errors the change adds count.
      await run('git', ['stash', '--include-untracked', '-q'], { cwd: copy });
      const before = typeErrors((await step(copy, tsc)).output);
      await run('git', ['stash', 'pop', '-q'], { cwd: copy });
      const added = [...typeErrors(typecheck.output)].filter((line) => !before.has(line));
      if (added.length > 0 || before.size === 0) failures.push(`the type check fails:\n${tail(added.join('\n') || typecheck.output)}`);
    }
    const tests = await step(copy, [process.execPath, '--import', 'tsx', '--test', ...scenario.tests]);
    if (!tests.ok) failures.push(`its tests fail (${scenario.tests.join(', ')}):\n${tail(tests.output, 80)}`);
    return { id: scenario.id, files, failures };
  } finally {
    if (keep) console.log(`${scenario.id}: the copy is at ${copy}`);
    else await rm(dirname(copy), { recursive: true, force: true });
  }
}

/** Where the section of the table starts and ends in `page` (at the next heading of its level, or the page's end). */
function sectionOf(page: string): { start: number; end: number } {
  const start = page.indexOf(`\n${COUNTS_SECTION}\n`);
  if (start === -1) throw new Error(`${COUNTS_PAGE} has no section "${COUNTS_SECTION}"`);
  const next = page.indexOf('\n## ', start + COUNTS_SECTION.length + 1);
  return { start, end: next === -1 ? page.length : next };
}

/** A row of the table: `| <change> | <count> | \`<scenario id>\` |`. */
const ROW = /^\|([^|\n]*)\|\s*(\d+)\s*\|\s*`([\w-]+)`\s*\|\s*$/gm;

/** The table of `docs/architecture.md`'s "What a change touches": each scenario's stated count, by its id. */
export function statedCounts(page: string): Map<string, number> {
  const { start, end } = sectionOf(page);
  return new Map([...page.slice(start, end).matchAll(ROW)].map((row) => [row[3]!, Number(row[2])]));
}

/** The page with each measured count written into its row of the table. */
export function withCounts(page: string, measured: readonly Measured[]): string {
  const { start, end } = sectionOf(page);
  const byId = new Map(measured.map((result) => [result.id, result.files.length]));
  const section = page
    .slice(start, end)
    .replace(ROW, (row, change: string, _count: string, id: string) => (byId.has(id) ? `|${change}| ${byId.get(id)} | \`${id}\` |` : row));
  return `${page.slice(0, start)}${section}${page.slice(end)}`;
}

/** What is wrong with the measured results against the stated counts: a failed scenario, a count above its row, a scenario without a row. */
export function problems(measured: readonly Measured[], stated: ReadonlyMap<string, number>): string[] {
  const found: string[] = [];
  for (const { id, files, failures } of measured) {
    for (const failure of failures) found.push(`${id}: ${failure}`);
    const limit = stated.get(id);
    if (limit === undefined) {
      const change = SCENARIOS.find((scenario) => scenario.id === id)?.change ?? '…';
      found.push(
        `${id}: ${COUNTS_PAGE} states no count for it: add the row | ${change} | ${files.length} | \`${id}\` | to "${COUNTS_SECTION}"`,
      );
    } else if (files.length > limit) found.push(`${id}: ${files.length} files touched, above the ${limit} ${COUNTS_PAGE} states`);
  }
  return found;
}

/** The table the script prints: each scenario's count, the stated one, and the files. */
export function report(measured: readonly Measured[], stated: ReadonlyMap<string, number>): string {
  return measured
    .map(({ id, files, failures }) => {
      const limit = stated.get(id);
      const verdict = failures.length > 0 ? 'FAILED' : limit === undefined ? 'no stated count' : `stated ${limit}`;
      return [`${id}: ${files.length} files (${verdict})`, ...files.map((file) => `  ${file}`)].join('\n');
    })
    .join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const only = args.flatMap((arg, index) => (args[index - 1] === '--scenario' ? [arg] : []));
  const unknown = only.filter((id) => !SCENARIOS.some((scenario) => scenario.id === id));
  if (unknown.length > 0) {
    console.error(`No scenario ${unknown.join(', ')}; the scenarios: ${SCENARIOS.map((scenario) => scenario.id).join(', ')}`);
    process.exit(2);
  }
  const chosen = SCENARIOS.filter((scenario) => only.length === 0 || only.includes(scenario.id));
  const measured: Measured[] = [];
  for (const scenario of chosen) measured.push(await measure(scenario, root, args.includes('--keep')));
  const pagePath = join(root, COUNTS_PAGE);
  const page = await readFile(pagePath, 'utf8');
  const stated = statedCounts(page);
  console.log(report(measured, stated));
  if (args.includes('--write')) {
    // A scenario that failed measured nothing: its row keeps what it said.
    await writeFile(
      pagePath,
      withCounts(
        page,
        measured.filter((result) => result.failures.length === 0),
      ),
    );
    console.log(`${COUNTS_PAGE}: the measured counts written.`);
  }
  const found = problems(measured, args.includes('--write') ? statedCounts(await readFile(pagePath, 'utf8')) : stated);
  for (const problem of found) console.error(problem);
  for (const { id, files } of measured) {
    const limit = stated.get(id);
    if (limit !== undefined && files.length < limit)
      console.log(`${id}: ${files.length} files, below the ${limit} stated: \`--write\` states it.`);
  }
  const failed = measured.some((result) => result.failures.length > 0);
  if (failed || (args.includes('--check') && found.length > 0)) process.exit(1);
}
