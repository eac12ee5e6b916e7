/**
 * The webhook handler's once-per-event runner (src/server/webhooks/once-per-event.ts) on its own, without
 * HTTP: claim → callback → markDone or release, and the outcomes the handler turns into answers. The store is
 * the package's memory store (the unit's real default), watched by a thin wrapper that records its calls; the
 * lease runs on the test's clock (node:test's mocked Date), which stands in for time passing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { memoryEventIdStore, type EventClaimStore } from 'payroll-link/server';
import { oncePerEvent, type OncePerEventOptions } from '../../src/server/webhooks/once-per-event.js';
import { asClaimStore } from '../../src/server/webhooks/event-id-store.js';
import { captureLog } from './server-example-upstream.js';

const LEASE_MS = 60_000;

/** The memory store, with each call recorded and a promise per `markDone`/`release`, for work that ends after its answer. */
function watchedStore() {
  const inner = memoryEventIdStore();
  const calls: string[] = [];
  let waiters: ((call: string) => void)[] = [];
  const settled = (call: string) => {
    for (const waiter of waiters) waiter(call);
    waiters = [];
  };
  const store: EventClaimStore = {
    claim: (eventId, token, leaseMs) => {
      const result = inner.claim(eventId, token, leaseMs);
      calls.push(`claim ${result}`);
      return result;
    },
    markDone: (eventId, token) => {
      calls.push('markDone');
      void inner.markDone(eventId, token);
      settled('markDone');
    },
    release: (eventId, token) => {
      calls.push('release');
      void inner.release(eventId, token);
      settled('release');
    },
  };
  /** Resolves with the next markDone or release. */
  const ended = () => new Promise<string>((resolve) => waiters.push(resolve));
  return { store, inner, calls, ended };
}

/** A store of the older `{ has, add }` kind, whose has-then-add is no atomic claim. */
function idOnlyStore() {
  const seen = new Set<string>();
  return { has: (eventId: string) => seen.has(eventId), add: (eventId: string) => void seen.add(eventId) };
}

function runner(store: EventClaimStore, options: Partial<OncePerEventOptions> = {}) {
  const { log, lines } = captureLog();
  const run = oncePerEvent({
    store,
    leaseMs: LEASE_MS,
    callbackTimeoutMs: 5_000,
    storeTimeoutMs: 5_000,
    log,
    isolatedRequests: false,
    ...options,
  });
  return { run, lines };
}

describe('once per event, without HTTP', () => {
  test('a callback that succeeds: handled and marked done; a second run is a duplicate and runs nothing', async () => {
    const { store, inner, calls } = watchedStore();
    const { run } = runner(store);
    let runs = 0;
    assert.equal(await run('e1', () => void runs++), 'handled');
    assert.equal(await run('e1', () => void runs++), 'duplicate');
    assert.equal(runs, 1);
    assert.deepEqual(calls, ['claim claimed', 'markDone', 'claim done']);
    assert.equal(inner.has('e1'), true);
  });

  test('a callback that throws: failed, logged once, the claim released and nothing marked done; the next run handles it', async () => {
    const { store, inner, calls } = watchedStore();
    const { run, lines } = runner(store);
    assert.equal(await run('e1', () => Promise.reject(new Error('database down'))), 'failed');
    assert.deepEqual(calls, ['claim claimed', 'release']);
    assert.equal(inner.has('e1'), false, 'not done');
    assert.equal(lines.filter((line) => line.includes('database down')).length, 1, lines.join('\n'));
    // Released: another instance may claim it at once, without waiting for the lease.
    assert.equal(inner.claim('e1', 'other-instance', LEASE_MS), 'claimed');
    void inner.release('e1', 'other-instance');
    assert.equal(await run('e1', () => {}), 'handled');
  });

  test('a callback that throws a value that cannot become a string: still released, not done', async () => {
    const { store, inner, calls } = watchedStore();
    const { run, lines } = runner(store);
    assert.equal(await run('e1', () => Promise.reject(Object.create(null))), 'failed');
    assert.deepEqual(calls, ['claim claimed', 'release']);
    assert.equal(inner.has('e1'), false);
    assert.equal(lines.filter((line) => line.startsWith('error webhook: the callback failed')).length, 1, lines.join('\n'));
  });

  test('a busy claim: another holder has an unexpired lease, so busy, the callback not run', async () => {
    const { store, inner } = watchedStore();
    const { run, lines } = runner(store);
    assert.equal(inner.claim('e1', 'other-instance', LEASE_MS), 'claimed');
    let runs = 0;
    assert.equal(await run('e1', () => void runs++), 'busy');
    assert.equal(runs, 0);
    assert.equal(lines.filter((line) => line.includes('another instance is handling this event')).length, 1);
  });

  test('a done event: a duplicate, the callback not run', async () => {
    const { store, inner } = watchedStore();
    void inner.markDone('e1', 'earlier');
    const { run } = runner(store);
    let runs = 0;
    assert.equal(await run('e1', () => void runs++), 'duplicate');
    assert.equal(runs, 0);
  });

  test('a lease that runs out: the claim of a holder that died holds the event until then, and the next run handles it', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const { store, inner } = watchedStore();
    const { run } = runner(store);
    assert.equal(inner.claim('e1', 'died-mid-callback', LEASE_MS), 'claimed');
    t.mock.timers.tick(LEASE_MS - 1);
    assert.equal(await run('e1', () => {}), 'busy');
    t.mock.timers.tick(1);
    assert.equal(await run('e1', () => {}), 'handled');
    assert.equal(inner.has('e1'), true);
  });

  test('a callback past its bound: timed out, the claim kept meanwhile, then marked done when it succeeds late', async () => {
    const { store, inner, ended } = watchedStore();
    const { run, lines } = runner(store, { callbackTimeoutMs: 20 });
    let finish!: () => void;
    const late = new Promise<void>((resolve) => (finish = resolve));
    assert.equal(await run('e1', () => late), 'timed-out');
    assert.equal(lines.filter((line) => line.includes('did not settle within 20 ms')).length, 1);
    assert.equal(inner.claim('e1', 'other-instance', LEASE_MS), 'busy', 'kept: a copy elsewhere must not run the same work beside it');
    const end = ended();
    finish();
    assert.equal(await end, 'markDone');
    assert.equal(inner.has('e1'), true);
  });

  test('a callback past its bound that then fails: the claim released, not done', async () => {
    const { store, inner, ended } = watchedStore();
    const { run } = runner(store, { callbackTimeoutMs: 20 });
    let fail!: (error: Error) => void;
    const late = new Promise<void>((_, reject) => (fail = reject));
    assert.equal(await run('e1', () => late), 'timed-out');
    const end = ended();
    fail(new Error('gave up'));
    assert.equal(await end, 'release');
    assert.equal(inner.has('e1'), false);
    assert.equal(inner.claim('e1', 'other-instance', LEASE_MS), 'claimed');
  });

  test('a store that throws or does not answer: store-unavailable, the callback not run', async () => {
    let runs = 0;
    const throwing = runner({ claim: () => Promise.reject(new Error('connection lost')), markDone: () => {}, release: () => {} });
    assert.equal(await throwing.run('e1', () => void runs++), 'store-unavailable');
    assert.ok(throwing.lines.some((line) => line.includes('store.claim failed: Error: connection lost')));
    const hanging = runner({ claim: () => new Promise(() => {}), markDone: () => {}, release: () => {} }, { storeTimeoutMs: 20 });
    assert.equal(await hanging.run('e1', () => void runs++), 'store-unavailable');
    assert.ok(hanging.lines.some((line) => line.includes('store.claim did not answer within 20 ms')));
    assert.equal(runs, 0);
  });

  test('copies in one process wait for the first: a duplicate after its success; after its failure they run it themselves', async () => {
    const { store } = watchedStore();
    const { run } = runner(store);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let runs = 0;
    const first = run('ok', async () => {
      runs++;
      await gate;
    });
    const copy = run('ok', () => void runs++);
    open();
    assert.deepEqual(await Promise.all([first, copy]), ['handled', 'duplicate']);
    assert.equal(runs, 1);

    let attempts = 0;
    const failing = run('flaky', async () => {
      attempts++;
      throw new Error('first try fails');
    });
    const retry = run('flaky', () => void attempts++);
    assert.deepEqual(await Promise.all([failing, retry]), ['failed', 'handled']);
    assert.equal(attempts, 2);
  });

  /** Where requests are isolated, a copy arriving while the first runs is busy at once; after it, a duplicate. */
  async function copiesWhileIsolated(store: EventClaimStore) {
    const { run } = runner(store, { isolatedRequests: true });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let runs = 0;
    const first = run('ok', async () => {
      runs++;
      await gate;
    });
    // Answered while the first still runs: nothing of the first request's is awaited.
    assert.equal(await run('ok', () => void runs++), 'busy');
    open();
    assert.equal(await first, 'handled');
    assert.equal(await run('ok', () => void runs++), 'duplicate');
    assert.equal(runs, 1);
  }

  // Bounded: a copy that awaited the first would hang on the gate, not fail.
  test(
    'where requests are isolated (Cloudflare Workers), a copy never awaits the first: busy while it holds the claim',
    { timeout: 5_000 },
    () => copiesWhileIsolated(watchedStore().store),
  );

  test('where requests are isolated, a { has, add } store (no atomic claim) still runs one copy at a time', { timeout: 5_000 }, () =>
    copiesWhileIsolated(asClaimStore(idOnlyStore())),
  );
});
