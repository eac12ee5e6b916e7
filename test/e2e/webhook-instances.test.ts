/**
 * More than one instance, end to end (issue 24, item 4): four processes of a
 * small app using `createWebhookHandler` (webhook-instance.ts) behind a
 * round-robin proxy, a second proxy in front that sends every delivery to two
 * instances at once, and the real sandbox delivering to it with its own
 * retries. With the Redis store and then the PostgreSQL store (real private
 * servers): 500 events, each callback run exactly once, counted by a counter
 * outside the instances; an instance killed with SIGKILL mid-callback, whose
 * event is handled once after its lease runs out; the store stopped mid-run,
 * with no event acknowledged without its callback and all handled once it is
 * back. The proxies are test scaffolding standing in for a load balancer.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, startTestSandbox } from '../node/sandbox-test-client.js';
import { startPostgres, startRedis, type PrivateServer } from '../private-servers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SECRET = 'whsec_e2e_instances_0123456789';
const INSTANCES = 4;
const EVENTS = 500;
/** Triggers in flight at once: enough to keep four instances busy, few enough for a shared 2-core machine. */
const CONCURRENCY = 10;
/** Bound on every wait for a condition. */
const WAIT_MS = 120_000;

/** Everything started, stopped in reverse order after the test, whatever happened. */
const cleanups: (() => Promise<unknown> | unknown)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
});

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.close(resolve);
        server.closeAllConnections();
      }),
  );
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Counts callback runs, outside the instances. Each run is one request (the
 * callback's side effect, like a credit in a ledger); a run counts once the
 * counter has accepted it. `started` keeps which instance asked, per event.
 */
async function startCounter() {
  const started = new Map<string, number[]>();
  const ran = new Map<string, number>();
  /** Set by a test to take over one run (to kill its instance mid-callback); returns true when it did. */
  let onRun: ((eventId: string, pid: number) => boolean) | null = null;
  const { url } = await listen(async (req, res) => {
    const { eventId, pid } = JSON.parse((await readBody(req)).toString()) as { eventId: string; pid: number };
    started.set(eventId, [...(started.get(eventId) ?? []), pid]);
    if (onRun?.(eventId, pid)) return; // Not counted, no answer: that instance dies in the middle of its callback.
    ran.set(eventId, (ran.get(eventId) ?? 0) + 1);
    res.writeHead(204).end();
  });
  return { url, started, ran, setOnRun: (hook: typeof onRun) => (onRun = hook) };
}

interface Instance {
  child: ChildProcess;
  port: number;
  dead: boolean;
}

async function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/e2e/webhook-instance.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const instance: Instance = { child, port: 0, dead: false };
  child.once('exit', () => (instance.dead = true));
  cleanups.push(() => {
    if (instance.dead) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    return exited;
  });
  let output = '';
  instance.port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`an instance exited (${code}) before it listened: ${output}`)));
  });
  return instance;
}

/** The load balancer: each request to the next live instance in turn; 502 when one fails to answer. */
async function roundRobinProxy(instances: Instance[]) {
  let next = 0;
  return listen(async (req, res) => {
    const body = await readBody(req);
    const alive = instances.filter((instance) => !instance.dead);
    const target = alive[next++ % alive.length]!;
    try {
      const answer = await fetch(`http://127.0.0.1:${target.port}${req.url}`, {
        method: req.method,
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: new Uint8Array(body),
      });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  });
}

/** Sends every delivery to `target` twice at once (two instances, behind the round robin); 200 if either copy got one. */
async function duplicatingProxy(target: string) {
  return listen(async (req, res) => {
    const body = await readBody(req);
    const copy = () =>
      fetch(`${target}${req.url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: new Uint8Array(body) }).then(
        async (answer) => ({ status: answer.status, text: await answer.text() }),
        () => ({ status: 502, text: '' }),
      );
    const answers = await Promise.all([copy(), copy()]);
    const chosen = answers.find((answer) => answer.status === 200) ?? answers[0]!;
    res.writeHead(chosen.status, { 'content-type': 'application/json' }).end(chosen.text);
  });
}

/** Waits until every delivery the sandbox has made so far has settled, and no new one started meanwhile. */
async function allSettled(sandbox: Sandbox): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  for (let count = -1; count !== sandbox.webhooks.deliveries.length;) {
    assert.ok(Date.now() < deadline, 'deliveries settle in time');
    count = sandbox.webhooks.deliveries.length;
    await Promise.all(sandbox.webhooks.deliveries.map((delivery) => sandbox.webhooks.whenSettled(delivery)));
  }
}

/** Waits until the sandbox has made a delivery of `eventName`. */
async function deliveryOf(sandbox: Sandbox, eventName: string): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!sandbox.webhooks.deliveries.some((delivery) => delivery.event.event === eventName)) {
    assert.ok(Date.now() < deadline, `a ${eventName} delivery in time`);
    await sleep(50);
  }
}

/**
 * A POST on a connection of its own. On a machine this loaded, a kept-alive
 * connection can be closed by the server just as the client reuses it
 * ("fetch failed"); a trigger must not be sent twice, so none is reused.
 */
function postFresh(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        let answer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (answer += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** Fires `count` events at the sandbox, CONCURRENCY at a time; their ids. */
async function trigger(sandbox: Sandbox, accountId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  let left = count;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left--;
        const response = await postFresh(
          `${sandbox.url}/sandbox/events`,
          { event: 'account.added', account_id: accountId },
          {
            'x-api-secret': sandbox.secret,
            'service-version': '2025-07-08',
          },
        );
        assert.equal(response.status, 200, response.text);
        for (const event of (JSON.parse(response.text) as { data: { events: { event_id: string }[] } }).data.events)
          ids.push(event.event_id);
      }
    }),
  );
  return ids;
}

/** Each event the sandbox delivered was acknowledged and its callback ran exactly once. */
function assertExactlyOnce(sandbox: Sandbox, ran: Map<string, number>, ids: Iterable<string>): void {
  const byId = new Map(sandbox.webhooks.deliveries.map((delivery) => [delivery.event.event_id, delivery]));
  for (const id of ids) {
    const delivery = byId.get(id);
    assert.equal(delivery?.status, 'delivered', `event ${id}: ${delivery?.lastError}`);
    assert.equal(ran.get(id), 1, `event ${id} ran ${ran.get(id) ?? 0} times`);
  }
}

const stores: [string, () => Promise<PrivateServer & { env: Record<string, string> }>][] = [
  [
    'Redis',
    async () => {
      const redis = await startRedis();
      return Object.assign(redis, { env: { STORE: 'redis', REDIS_SOCKET: redis.socketPath } });
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const postgres = await startPostgres();
      return Object.assign(postgres, { env: { STORE: 'postgres', PG_HOST: postgres.dir } });
    },
  ],
];

for (const [name, startStore] of stores) {
  describe(`${INSTANCES} instances on the ${name} store, every delivery sent twice`, { timeout: 600_000 }, () => {
    test(`${EVENTS} events exactly once; an instance killed mid-callback; the store stopped mid-run`, async (t) => {
      const began = Date.now();
      /** Seconds since the start, per step, in the test's output: where the time goes on a loaded CI machine. */
      const step = (what: string) => t.diagnostic(`${name}: ${what} at ${((Date.now() - began) / 1000).toFixed(1)} s`);
      const store = await startStore();
      cleanups.push(() => store.stop());
      const counter = await startCounter();
      const env = { ...store.env, COUNTER_URL: counter.url, WEBHOOK_SECRET: SECRET };
      const instances = await Promise.all(Array.from({ length: INSTANCES }, () => startInstance(env)));
      const balancer = await roundRobinProxy(instances);
      const front = await duplicatingProxy(balancer.url);
      // Quick, many retries: the sandbox's own backoff (it retries any non-2xx) is what brings busy and failed copies back.
      const sandbox = await startTestSandbox({
        webhookUrl: `${front.url}/hooks?secret=${SECRET}`,
        webhookRetryBaseMs: 100,
        webhookMaxAttempts: 20,
        webhookTimeoutMs: 15_000,
      });
      cleanups.push(() => sandbox.close());

      step('started');
      // 1. Exactly once, with every delivery duplicated across instances.
      const account = await api(sandbox, 'POST', '/sandbox/accounts', { body: { end_user_id: 'e2e-instances' } });
      assert.equal(account.status, 201, account.text);
      // Its first sync ends on the sandbox's job timer and sends paystubs.added (and, with it, the end user's
      // verification_reports.refreshed) then: waited for, so that no delivery starts after allSettled has looked.
      await deliveryOf(sandbox, 'paystubs.added');
      const ids = await trigger(sandbox, account.body.data.account.id as string, EVENTS);
      assert.equal(ids.length, EVENTS);
      await allSettled(sandbox);
      assertExactlyOnce(
        sandbox,
        counter.ran,
        sandbox.webhooks.deliveries.map((delivery) => delivery.event.event_id),
      );
      const spread = new Set([...counter.started.values()].flat());
      assert.equal(spread.size, INSTANCES, 'every instance ran callbacks');

      step(`${EVENTS} events handled`);
      // 2. An instance killed with SIGKILL in the middle of a callback: its lease runs out, another runs the event once.
      let killed: number | null = null;
      counter.setOnRun((_eventId, pid) => {
        if (killed !== null) return false;
        killed = pid;
        process.kill(pid, 'SIGKILL');
        return true;
      });
      const [victim] = await trigger(sandbox, account.body.data.account.id as string, 1);
      await allSettled(sandbox);
      counter.setOnRun(null);
      assert.ok(killed !== null, 'an instance was killed mid-callback');
      assert.ok(instances.some((instance) => instance.dead && instance.child.pid === killed));
      assertExactlyOnce(sandbox, counter.ran, [victim!]);
      assert.ok(counter.started.get(victim!)!.length >= 2, 'the event started on the killed instance, then ran on another');
      assert.notEqual(counter.started.get(victim!)!.at(-1), killed);

      step("killed instance's event handled");
      // 3. The store stopped mid-run: nothing acknowledged without its callback; all handled once it is back.
      await store.pause();
      const during = await trigger(sandbox, account.body.data.account.id as string, 20);
      const byId = () => new Map(sandbox.webhooks.deliveries.map((delivery) => [delivery.event.event_id, delivery]));
      const deadline = Date.now() + WAIT_MS;
      // Wait for the event that matters: every one of them refused at least once while the store is down.
      while (!during.every((id) => (byId().get(id)?.attempts ?? 0) >= 1 && byId().get(id)?.lastError !== null)) {
        assert.ok(Date.now() < deadline, 'every delivery was tried while the store was down');
        await sleep(50);
      }
      for (const id of during) {
        assert.equal(counter.ran.get(id), undefined, `event ${id} ran while the store was down`);
        assert.notEqual(byId().get(id)!.status, 'delivered', `event ${id} was acknowledged while the store was down`);
      }
      step('every delivery refused while the store was down');
      await store.start();
      await allSettled(sandbox);
      step('all handled after the store came back');
      assertExactlyOnce(sandbox, counter.ran, during);
      assert.equal(counter.ran.size, sandbox.webhooks.deliveries.length, 'no run for an event the sandbox did not send');
    });
  });
}
