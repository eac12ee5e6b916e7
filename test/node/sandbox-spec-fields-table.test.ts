/**
 * SPEC_FIELDS cites a line of the service's spec for each field it keeps: this reads the spec (beside the
 * repository, in ../shared/spec/, as on the project's machines and in CI) and checks that each cited line names
 * what cites it, so a citation cannot point at the wrong line unnoticed.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SPEC_FIELDS, type SpecFieldTable, type SpecShape } from '../../sandbox/state/spec-fields.js';

const SPEC = fileURLToPath(new URL('../../../shared/spec/payroll-service-api.md', import.meta.url));

/** The ways a line may name a field: as written, or in words (`link_token_id`: "link token id"), without `_count`. */
const spellings = (name: string): string[] => [
  name.toLowerCase(),
  name
    .replace(/_count$/, '')
    .replace(/_/g, ' ')
    .toLowerCase(),
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `line` names `name`: a row of a field table has it as its first cell (`| status |`, `| availability.voe |`);
 * a row of the events' table or a line of prose has it as a word (plural allowed: "Object ids are UUIDs").
 */
const names = (line: string, name: string): boolean => {
  const text = line.toLowerCase();
  const first = /^\|([^|]*)\|/.exec(text)?.[1]?.trim();
  if (first !== undefined && !Object.hasOwn(SPEC_FIELDS.events, first)) {
    return spellings(name).some((spelling) => first === spelling || first.endsWith(`.${spelling}`));
  }
  return spellings(name).some((spelling) => hasWord(text, spelling));
};

/** Whether `text` has `word` as a word of its own (plural allowed: "Object ids are UUIDs"). */
const hasWord = (text: string, word: string) => new RegExp(`(^|[^a-z_])${escape(word)}s?([^a-z_]|$)`).test(text);

/** Whether `line` names a resource (each word of `VoeReport`: "Verification report (VOE, VOIE)") or an event. */
const namesShape = (line: string, name: string): boolean =>
  name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .every((word) => hasWord(line.toLowerCase(), word));

test('each line SPEC_FIELDS cites names the field, resource or event that cites it', () => {
  assert.ok(existsSync(SPEC), `the spec is not at ${SPEC}: clone the repository beside shared/, as CI does`);
  const lines = readFileSync(SPEC, 'utf8').split('\n');
  const wrong: string[] = [];
  const check = (line: number, name: string, where: string, named = names) => {
    const text = lines[line - 1] ?? '';
    if (!named(text, name)) wrong.push(`${where}: line ${line} does not name ${name}: ${text}`);
  };
  const checkTable = (table: SpecFieldTable, where: string) => {
    for (const [name, rule] of Object.entries(table)) {
      check(typeof rule === 'number' ? rule : rule.line, name, `${where}.${name}`);
      if (typeof rule === 'object' && 'fields' in rule) checkTable(rule.fields, `${where}.${name}`);
    }
  };
  const shapes: [string, SpecShape][] = [...Object.entries(SPEC_FIELDS.resources), ...Object.entries(SPEC_FIELDS.events)];
  for (const [name, shape] of shapes) {
    check(shape.line, name, name, namesShape);
    checkTable(shape.fields, name);
  }
  assert.deepEqual(wrong, []);
  assert.ok(shapes.length >= 18, 'read every resource and event');
});
