/**
 * The Link page's one polling loop (sandbox/link-page/app/poll.ts), which both the job's progress and the
 * OAuth-style login's long poll use: it ends on the answer it waits for, tolerates a few lost connections in a row
 * (not more), fails at once on any other error, and stops quietly once its screen has gone or paused (its wait's time
 * limit passed: link-flow-moves.ts); it has no time limit of its own any more. No pauses here: each
 * test's `pause` is 0, so nothing waits for time.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LinkApiError } from '../../sandbox/link-page/app/link-api-client.js';
import { poll } from '../../sandbox/link-page/app/poll.js';

const lost = () => new LinkApiError(0, 'NETWORK_ERROR', 'offline');

/** An `ask` that plays `script` in order: a value is answered, an Error thrown. */
function scripted<T>(script: Array<T | Error>): { ask: () => Promise<T>; asked: () => number } {
  let asked = 0;
  return {
    ask: async () => {
      const step = script[asked++];
      if (step instanceof Error) throw step;
      return step as T;
    },
    asked: () => asked,
  };
}

const always = () => true;
const noPause = () => 0;

describe('Link page: poll()', () => {
  it('asks until the answer it waits for, and returns that answer', async () => {
    const { ask, asked } = scripted(['pending', 'pending', 'done']);
    const outcome = await poll({ ask, done: (answer): answer is 'done' => answer === 'done', current: always, pause: noPause });
    assert.deepEqual(outcome, { answer: 'done' });
    assert.equal(asked(), 3);
  });

  it('goes on after two lost connections in a row, and gives up on the third', async () => {
    const twice = scripted<string>([lost(), lost(), 'done']);
    assert.deepEqual(await poll({ ask: twice.ask, done: (a): a is string => a === 'done', current: always, pause: noPause }), {
      answer: 'done',
    });
    const third = lost();
    const thrice = scripted<string>([lost(), lost(), third, 'done']);
    assert.deepEqual(await poll({ ask: thrice.ask, done: (a): a is string => a === 'done', current: always, pause: noPause }), {
      failed: third,
    });
  });

  it('pauses after a lost connection as its pause says (the long poll waits only then)', async () => {
    const pauses: Array<[number, boolean]> = [];
    const { ask } = scripted<string>(['pending', lost(), 'done']);
    await poll({
      ask,
      done: (a): a is string => a === 'done',
      current: always,
      pause: (attempt, afterFailure) => (pauses.push([attempt, afterFailure]), 0),
    });
    assert.deepEqual(pauses, [
      [0, false],
      [1, false],
      [2, true],
    ]);
  });

  it('fails at once on any other error', async () => {
    const refused = new LinkApiError(401, 'INVALID_LINK_SESSION', 'gone');
    const { ask, asked } = scripted<string>([refused, 'done']);
    assert.deepEqual(await poll({ ask, done: (a): a is string => a === 'done', current: always, pause: noPause }), { failed: refused });
    assert.equal(asked(), 1);
  });

  it('returns the answer it waited for even when its screen stopped waiting meanwhile: the flow decides whether it counts', async () => {
    let here = true;
    const { ask } = scripted<string>(['done']);
    const outcome = await poll({
      ask: async () => {
        const answer = await ask();
        here = false; // The wait's time limit passed (or a new period began) while the answer was on its way.
        return answer;
      },
      done: (a): a is string => a === 'done',
      current: () => here,
      pause: noPause,
    });
    assert.deepEqual(outcome, { answer: 'done' });
  });

  it('stops quietly once its screen has gone, without asking again', async () => {
    let here = true;
    const { ask, asked } = scripted<string>(['pending', 'done']);
    const outcome = await poll({
      ask: async () => {
        const answer = await ask();
        here = false; // The user went back while the first answer was on its way.
        return answer;
      },
      done: (a): a is string => a === 'done',
      current: () => here,
      pause: noPause,
    });
    assert.equal(outcome, 'gone');
    assert.equal(asked(), 1);
  });
});
