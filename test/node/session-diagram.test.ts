/**
 * The session's diagram is drawn from its table (#36): the copy in the table's comment and the one in
 * docs/session.md must be what scripts/session-diagram.ts draws from `MOVES` today, so a move added to the table
 * without its picture (or a picture edited by hand) fails here. `npx tsx scripts/session-diagram.ts --write`
 * redraws both.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DIAGRAM_PLACES, sessionDiagram, withDiagram } from '../../scripts/session-diagram.js';
import { MOVES } from '../../src/core/session-moves.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the diagram draws every state and every move of the table', () => {
  const diagram = sessionDiagram();
  for (const [state, row] of Object.entries(MOVES)) {
    assert.match(diagram, new RegExp(`^${state} `, 'm'), `state ${state}`);
    for (const event of Object.keys(row).filter((event) => event !== '*')) assert.ok(diagram.includes(event), `${state}: ${event}`);
  }
});

for (const { file, after, prefix } of DIAGRAM_PLACES) {
  test(`${file} holds the diagram of the table as it is`, async () => {
    const text = await readFile(`${root}${file}`, 'utf8');
    assert.equal(withDiagram(text, after, prefix, sessionDiagram()), text, `stale: run npx tsx scripts/session-diagram.ts --write`);
  });
}
