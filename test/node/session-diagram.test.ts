/**
 * The session's diagram is drawn from where its moves may lead (#36, #43): the copy in the comment above
 * `SESSION_TARGETS` and the one in docs/session.md must be what scripts/session-diagram.ts draws from that data
 * today, so a move added without its picture (or a picture edited by hand) fails here.
 * `npx tsx scripts/session-diagram.ts --write` redraws both. The table `MOVES` is typed from that data: the compiler
 * holds each move to the states listed for it (the type check below).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DIAGRAM_PLACES, sessionDiagram, withDiagram } from '../../scripts/session-diagram.js';
import { SESSION_TARGETS, type OpenState, type Step } from '../../src/core/session-moves.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

// The compiler holds a move to the states it names: one that says `open` and ends the session does not compile.
// One line (prettier-ignore): the directive below applies to the next line only.
// prettier-ignore
// @ts-expect-error: a move of Step<'open'> returns the state `ended`
export const wrongMove = (state: OpenState): Step<'open'> => ({ state: { name: 'ended', exit: { reason: 'error', error: null, linkTokenId: state.token.id } }, effects: [] });

test('every state but the first can be reached, as the data says', () => {
  assert.deepEqual(SESSION_TARGETS.waiting.token, ['waiting', 'open']);
  const reached = new Set(Object.values(SESSION_TARGETS).flatMap((row) => Object.values(row).flatMap((to) => to ?? [])));
  assert.deepEqual(
    Object.keys(SESSION_TARGETS).filter((state) => state !== 'prefetched' && !reached.has(state)),
    [],
  );
});

for (const { file, after, prefix } of DIAGRAM_PLACES) {
  test(`${file} holds the diagram of the table as it is`, async () => {
    const text = await readFile(`${root}${file}`, 'utf8');
    assert.equal(withDiagram(text, after, prefix, sessionDiagram()), text, `stale: run npx tsx scripts/session-diagram.ts --write`);
  });
}
