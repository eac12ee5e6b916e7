/**
 * The session's diagram is drawn from its table (#36): the copy in the table's comment and the one in
 * docs/session.md must be what scripts/session-diagram.ts draws from `MOVES` today, so a move added to the table
 * without its picture (or a picture edited by hand) fails here. `npx tsx scripts/session-diagram.ts --write`
 * redraws both. The states a move may lead to are its return type (`To<...>`): the compiler holds the move to
 * them (the type check below), and the diagram reads them from the table's source.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DIAGRAM_PLACES, readTable, sessionDiagram, withDiagram } from '../../scripts/session-diagram.js';
import { MOVES, type OpenState, type To } from '../../src/core/session-moves.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// The compiler holds a move to the states it names: one that says `open` and ends the session does not compile.
// One line (prettier-ignore): the directive below applies to the next line only.
// prettier-ignore
// @ts-expect-error: a move of To<'open'> returns the state `ended`
export const wrongMove = (state: OpenState): To<'open'> => ({ name: 'ended', exit: { reason: 'error', error: null, linkTokenId: state.token.id } });

test('the table read from its source is the table: every state, every move, each with the states it names', async () => {
  const table = await readTable();
  assert.deepEqual([...table.keys()], Object.keys(MOVES));
  for (const [state, row] of Object.entries(MOVES)) {
    const read = table.get(state)!;
    assert.deepEqual([...read.keys()], Object.keys(row), `the moves of ${state}`);
    for (const [event, move] of Object.entries(row))
      assert.equal(read.get(event) === null, move === null, `${state}.${event}: a move, or none`);
  }
  assert.deepEqual(table.get('waiting')!.get('token'), ['waiting', 'open']);
  // Every state but the first can be reached.
  const reached = new Set([...table.values()].flatMap((row) => [...row.values()].flatMap((to) => to ?? [])));
  assert.deepEqual(
    Object.keys(MOVES).filter((state) => state !== 'prefetched' && !reached.has(state)),
    [],
  );
});

for (const { file, after, prefix } of DIAGRAM_PLACES) {
  test(`${file} holds the diagram of the table as it is`, async () => {
    const text = await readFile(`${root}${file}`, 'utf8');
    assert.equal(
      withDiagram(text, after, prefix, sessionDiagram(await readTable())),
      text,
      `stale: run npx tsx scripts/session-diagram.ts --write`,
    );
  });
}
