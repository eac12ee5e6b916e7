/**
 * A scripted fake of the integrator's token endpoint (outside the widget, the
 * system under test), for the soak and the fault table. Like the tests'
 * `fakeTokenMiddleware`, with the faults the fault table needs added:
 * connection resets and a chosen `Retry-After`.
 *
 * `POST /token?key=K&plan=503,503,ok` answers call n of key K with step n of
 * the plan (the last step repeats). Steps:
 * - `ok`: a token valid for an hour; `ttl<ms>`: valid for that long;
 * - `expired`: expired a minute ago; `malformed`: cut-off JSON; `invalid`: an envelope that fails the schema;
 * - `hang`: never answers (until the server closes); `reset`: destroys the connection;
 * - `429r<seconds>`: 429 with that `Retry-After`; any number: that HTTP status.
 * `GET /token/calls?key=K` answers how many calls K has seen.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, send } from './http-server.js';

/** A handler for `/token` and `/token/calls`; returns false for any other path. */
export function createTokenEndpoint(): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean> {
  const calls = new Map<string, number>();
  return async (req, res, url) => {
    if (url.pathname === '/token/calls') {
      send(res, 200, 'application/json', JSON.stringify({ calls: calls.get(url.searchParams.get('key') ?? '') ?? 0 }));
      return true;
    }
    if (url.pathname !== '/token') return false;
    await readBody(req);
    const key = url.searchParams.get('key') ?? '';
    const plan = (url.searchParams.get('plan') ?? 'ok').split(',');
    const seen = (calls.get(key) ?? 0) + 1;
    calls.set(key, seen);
    const step = plan[Math.min(seen, plan.length) - 1]!;
    const mint = (lifetimeMs: number) => {
      const id = randomUUID();
      // `tok.<id>` is what the tests' fake Link page expects, so its events carry the matching Link token id.
      const data = { id, token: `tok.${id}.${seen}`, expires: new Date(Date.now() + lifetimeMs).toISOString(), mode: 'sandbox' };
      send(res, 200, 'application/json', JSON.stringify({ data }));
    };
    if (step === 'ok') return (mint(3_600_000), true);
    if (step.startsWith('ttl')) return (mint(Number(step.slice(3))), true);
    if (step === 'expired') return (mint(-60_000), true);
    if (step === 'malformed') return (send(res, 200, 'application/json', '{"data": {'), true);
    if (step === 'invalid') return (send(res, 200, 'application/json', JSON.stringify({ data: { id: 'nope', token: '' } })), true);
    if (step === 'hang') return true; // The request stays open until the client gives up or the server closes.
    if (step === 'reset') return (req.socket.destroy(), true);
    if (step.startsWith('429r')) {
      send(res, 429, 'application/json', JSON.stringify({ error: 'slow down' }), { 'retry-after': step.slice(4) });
      return true;
    }
    send(res, Number(step) || 500, 'application/json', JSON.stringify({ error: 'scripted failure' }));
    return true;
  };
}
