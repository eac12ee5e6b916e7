/**
 * `payroll-link/server/node` on a real node:http server: an unread body
 * streams through; a body a parser already read (as express.json() or Fastify
 * leave it) is taken from `req.body`; a handler that throws becomes a JSON 500
 * in the service's error shape and the server keeps serving. The framework
 * apps themselves are in test/packaging/servers.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, test } from 'node:test';
import { ErrorBodySchema } from 'payroll-link/server';
import { toNodeHandler, type WebHandler } from 'payroll-link/server/node';

/** Echoes what the handler saw of the request. */
const echo: WebHandler = async (request) =>
  Response.json({ method: request.method, contentType: request.headers.get('content-type'), body: await request.text() });

const servers: Server[] = [];
after(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

/** A server whose listener runs `before` (a stand-in body parser) and then the adapter. */
async function serve(handler: WebHandler, before?: (req: IncomingMessage & { body?: unknown }) => Promise<void>, errors: string[] = []) {
  const nodeHandler = toNodeHandler(handler, { log: { error: (message) => void errors.push(message) } });
  const server = createServer(async (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    await before?.(req);
    await nodeHandler(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Reads the whole body, as body-parser does, and leaves the parsed value on req.body. */
const parseAs = (parse: (text: string) => unknown) => async (req: IncomingMessage & { body?: unknown }) => {
  let text = '';
  for await (const chunk of req) text += chunk;
  req.body = parse(text);
};

const post = (url: string, body: string, contentType = 'application/json') =>
  fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('toNodeHandler', () => {
  test('an unread body streams through unchanged', async () => {
    const url = await serve(echo);
    const answer = await (await post(url, '{"end_user_id":"u-1"}')).json();
    assert.deepEqual(answer, { method: 'POST', contentType: 'application/json', body: '{"end_user_id":"u-1"}' });
  });

  test('a body a JSON parser already read is taken from req.body, written back as JSON', async () => {
    const url = await serve(
      echo,
      parseAs((text) => JSON.parse(text)),
    );
    const answer = (await (await post(url, '{ "end_user_id" : "u-2" }')).json()) as { body: string; contentType: string };
    assert.deepEqual(JSON.parse(answer.body), { end_user_id: 'u-2' });
    assert.equal(answer.contentType, 'application/json');
  });

  test('a form a urlencoded parser read keeps its content type, so the handler can refuse it', async () => {
    const url = await serve(
      echo,
      parseAs((text) => Object.fromEntries(new URLSearchParams(text))),
    );
    const answer = (await (await post(url, 'a=1', 'application/x-www-form-urlencoded')).json()) as { body: string; contentType: string };
    assert.equal(answer.contentType, 'application/x-www-form-urlencoded');
    assert.deepEqual(JSON.parse(answer.body), { a: '1' });
  });

  test('a text parser’s string passes as it is', async () => {
    const url = await serve(
      echo,
      parseAs((text) => text),
    );
    const answer = (await (await post(url, 'not json', 'text/plain')).json()) as { body: string };
    assert.equal(answer.body, 'not json');
  });

  test('a handler that throws: a JSON 500 in the error shape, logged once, and the server serves on', async () => {
    const errors: string[] = [];
    let calls = 0;
    const url = await serve(
      async (request) => {
        if (calls++ === 0) throw new Error('kaboom');
        return echo(request);
      },
      undefined,
      errors,
    );
    const failed = await post(url, '{}');
    assert.equal(failed.status, 500);
    assert.equal(ErrorBodySchema.parse(await failed.json()).error.error_codes[0]!.error_code, 'INTERNAL_ERROR');
    assert.equal(errors.length, 1);
    assert.match(errors[0]!, /kaboom/);
    assert.equal((await post(url, '{}')).status, 200);
  });
});
