/**
 * Review finding 4 (#48): a path parameter stays in its segment. The client sends `.` as `%2E`, and the URL parser
 * `fetch` uses reads `%2E%2E` as `..`: `verificationReports.voe('..')` requested `/v1/verification_reports/voe`. A
 * value that is, or decodes to, empty, `.` or `..` is refused as `invalid_request` before any request; a loopback
 * server counts what reaches it.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createPayrollClient, isPayrollApiError, type PayrollClient } from '../../src/server/index.js';

/** Every request that reached the server, as `METHOD path`. */
const reached: string[] = [];
let server: Server;
let client: PayrollClient;

before(async () => {
  server = createServer((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          status_code: 404,
          message: 'No such thing.',
          type: 'NOT_FOUND',
          error_codes: [{ error_code: 'NOT_FOUND', message: 'No such thing.' }],
        },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = createPayrollClient({
    apiSecret: 'sandbox_path_parameters_0123456789',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    version: '2025-07-08',
    mode: 'sandbox',
    maxRetries: 0,
    log: { info() {}, warn() {}, error() {} },
  });
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Values that are, or decode (once or more) to, a dot segment or nothing. */
const DOT_SEGMENTS = ['', '.', '..', '%2e', '%2E', '%2e%2e', '%2E%2e', '.%2E', '%2e.', '%252e%252e', '%25252E'];

describe('client path parameters', () => {
  test('review finding 4: an empty, `.` or `..` path parameter, in any case or encoding, is refused before any request', async () => {
    for (const value of DOT_SEGMENTS) {
      for (const call of [() => client.verificationReports.voe(value), () => client.verificationReports.voie(value)]) {
        const error = await call().then(
          () => assert.fail(`${JSON.stringify(value)} was sent`),
          (thrown: unknown) => thrown,
        );
        assert.ok(isPayrollApiError(error), `${JSON.stringify(value)}: a PayrollApiError`);
        assert.equal(error.kind, 'invalid_request', JSON.stringify(value));
        assert.match(error.message, /endUserId/, JSON.stringify(value));
      }
    }
    assert.deepEqual(reached, [], 'no request reached the server');
  });

  test('a value with dots that is no dot segment is sent, in its one segment', async () => {
    const from = reached.length;
    const error = await client.verificationReports.voe('...').catch((thrown: unknown) => thrown);
    assert.ok(isPayrollApiError(error));
    assert.equal(error.kind, 'not_found', 'it was sent, and the server answered');
    assert.deepEqual(reached.slice(from), ['GET /v1/end_users/%2E%2E%2E/verification_reports/voe']);
  });
});
