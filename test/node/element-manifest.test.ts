/**
 * custom-elements.json (hence docs/reference.md and every tool that reads the manifest) takes the element's events and
 * options from their tables (#50): `ELEMENT_EVENTS` and `ELEMENT_OPTIONS` in src/protocol/, through the analyzer's
 * config (custom-elements-manifest.config.mjs). The analyzer runs here on the sources, into a temporary folder, and
 * its manifest must hold each row as a hand-written Lit element would have given it: an event per row with its
 * detail's type and its description, a callback field per event, a field per option with its attribute, reflection
 * and default, and nothing else of the element's. (The manifest these give was compared with the one of the
 * hand-written element once, when the tables came: the same but for merged descriptions and plainer type texts.)
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ELEMENT_EVENTS, type ElementEventRow } from '../../src/protocol/element-events.js';
import { ELEMENT_OPTIONS, type ElementOptionRow } from '../../src/protocol/element-options.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

interface Member {
  kind: string;
  name: string;
  type?: { text: string };
  description?: string;
  attribute?: string;
  reflects?: boolean;
  default?: string;
}
interface Element {
  tagName: string;
  members: Member[];
  attributes: { name: string; fieldName: string; description?: string }[];
  events: { name: string; type: { text: string }; description: string }[];
}

/** The manifest's `<payroll-link>`, as the analyzer writes it from the sources now. */
async function analyzedElement(): Promise<Element> {
  // The analyzer joins its outdir to the working directory: a temporary folder inside the repository's cache.
  await mkdir(join(root, 'node_modules/.cache'), { recursive: true });
  const outdir = await mkdtemp(join(root, 'node_modules/.cache/element-manifest-'));
  try {
    await promisify(execFile)('npx', ['cem', 'analyze', '--quiet', '--outdir', relative(root, outdir)], { cwd: root, timeout: 120_000 });
    const manifest = JSON.parse(await readFile(join(outdir, 'custom-elements.json'), 'utf8')) as {
      modules: { declarations?: (Element & { tagName?: string })[] }[];
    };
    const element = manifest.modules.flatMap((module) => module.declarations ?? []).find((node) => node.tagName === 'payroll-link');
    assert.ok(element, 'the manifest has <payroll-link>');
    return element;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
}

const element = analyzedElement();

test('each row of ELEMENT_EVENTS is an event of the manifest, in order, with its detail type and a description', async () => {
  const { events } = await element;
  const contract = await readFile(join(root, 'src/protocol.ts'), 'utf8');
  assert.deepEqual(
    events.map((event) => event.name),
    Object.keys(ELEMENT_EVENTS),
  );
  for (const event of events) {
    const detail = /^CustomEvent<(\w+)>$/.exec(event.type.text)?.[1];
    assert.ok(
      detail && new RegExp(`export type ${detail}\\b`).test(contract),
      `${event.name}: its detail ${event.type.text} is the contract's`,
    );
    assert.ok(event.description.length > 20, `${event.name}: described`);
  }
  // The two the Link page brings and the session fires, by the types their rows lead to.
  assert.equal(events.find((event) => event.name === 'link-login')?.type.text, 'CustomEvent<LoginDetail>');
  assert.equal(events.find((event) => event.name === 'link-exit')?.type.text, 'CustomEvent<ExitDetail>');
});

test("each row of ELEMENT_OPTIONS is a field of the manifest with its row's attribute, reflection, default and description", async () => {
  const { members, attributes } = await element;
  for (const [name, row] of Object.entries<ElementOptionRow>(ELEMENT_OPTIONS)) {
    const field = members.find((member) => member.name === name);
    assert.ok(field?.kind === 'field', `${name} is a field`);
    assert.equal(field.attribute, row.attribute === false ? undefined : (row.attribute ?? name.toLowerCase()), `${name}: its attribute`);
    assert.equal(field.reflects, row.reflect, `${name}: reflected as its row says`);
    assert.equal(field.default, row.value === undefined ? undefined : String(row.value), `${name}: its default`);
    assert.ok((field.description ?? '').length > 20 && field.type?.text, `${name}: typed and described`);
    if (field.attribute) assert.equal(attributes.find((attribute) => attribute.name === field.attribute)?.fieldName, name);
  }
});

test('the element has a callback field per event (but onOpen, the class says why), and no field the tables do not name', async () => {
  const { members } = await element;
  const callbacks = Object.values<ElementEventRow>(ELEMENT_EVENTS)
    .map((row) => row.callback)
    .filter((callback) => callback !== 'onOpen');
  const fields = members.filter((member) => member.kind === 'field').map((member) => member.name);
  assert.deepEqual(fields.sort(), [...Object.keys(ELEMENT_OPTIONS), ...callbacks].sort());
  for (const callback of callbacks)
    assert.equal(members.find((member) => member.name === callback)?.type?.text, `LinkCallbacks['${callback}']`);
});
