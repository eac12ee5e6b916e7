/**
 * Review finding 7 (#48): the launch token route minted on a cross-site `text/plain` POST (the result route and the
 * sandbox's Link API already answered 415). It now takes `application/json` only, and the token and result routes
 * take the launch page's own requests only: `Sec-Fetch-Site` `same-origin` or `none`, or, from a browser without
 * Fetch Metadata, an `Origin` that is the launch's public origin. The launches are mounted on a real node:http
 * server through the Node adapter, in front of the real sandbox, which counts the tokens minted.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ErrorBodySchema } from '../../src/server/error-body.js';
import { createPayrollClient } from '../../src/server/index.js';
import { createLinkLaunches, type LaunchResult, type LinkLaunches } from '../../src/server/launches.js';
import { toNodeHandler } from '../../src/server/node.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { startTestSandbox } from './sandbox-test-client.js';
import { captureLog } from './server-example-upstream.js';

let sandbox: Sandbox;
let server: Server;
let origin: string;
let launches: LinkLaunches;
const results: LaunchResult[] = [];
const { log, lines } = captureLog();

before(async () => {
  sandbox = await startTestSandbox();
  server = createServer((req, res) => void toNodeHandler((request) => launches.handle(request))(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  launches = createLinkLaunches({
    client: createPayrollClient({ apiSecret: sandbox.secret, baseUrl: sandbox.url, version: '2025-07-08', mode: 'sandbox', log }),
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: `${sandbox.url}/link`,
    publicUrl: `${origin}/link`,
    secret: 'launch-secret-0123456789abcdef-0123456789',
    log,
    onResult: (result) => void results.push(result),
  });
});
after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sandbox.close();
});

const tokensAtTheSandbox = () => sandbox.store.linkTokens().length;

/** A fresh launch's token and result URLs. */
async function launchUrls(): Promise<{ page: string; token: string; result: string }> {
  const { url } = await launches.create({ endUserId: 'user-token-route' });
  return { page: url, token: `${url}/token`, result: `${url}/result` };
}

/** A POST to `url` with `headers` (a JSON content type unless they say otherwise) and `body`. */
const postTo = (url: string, headers: Record<string, string>, body = '{}') =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });

/** The answer's status and its first error code, after checking the body has the spec's error shape. */
async function refusal(response: Response): Promise<[number, string]> {
  const { error } = ErrorBodySchema.parse(await response.json());
  assert.equal(error.status_code, response.status);
  return [response.status, error.error_codes[0]!.error_code];
}

/** What Chromium sends with the launch page's own `fetch(tokenPath, { method: 'POST', ... })`. */
const pagesOwnFetch = () => ({ origin, 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' });

describe("the launch's token route", () => {
  test('review finding 7: a cross-site text/plain POST mints nothing (415)', async () => {
    const { token } = await launchUrls();
    const before = tokensAtTheSandbox();
    // What a form or a no-cors fetch on another site can send without a preflight.
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const answer = await postTo(token, { 'content-type': contentType });
      assert.deepEqual(await refusal(answer), [415, 'UNSUPPORTED_MEDIA_TYPE'], contentType);
    }
    assert.equal(tokensAtTheSandbox(), before, 'nothing minted');
  });

  test('review finding 7: a request another site sent is refused with 403 CROSS_SITE_REQUEST, and mints nothing', async () => {
    const { token } = await launchUrls();
    const before = tokensAtTheSandbox();
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      // A sibling host of the same site is not the launch's page.
      { 'sec-fetch-site': 'same-site', origin: 'https://other.127.0.0.1.example' },
      // No Fetch Metadata (an older browser): the Origin decides.
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: origin.replace('127.0.0.1', 'localhost') },
    ];
    for (const headers of foreign) {
      assert.deepEqual(await refusal(await postTo(token, headers)), [403, 'CROSS_SITE_REQUEST'], JSON.stringify(headers));
    }
    assert.equal(tokensAtTheSandbox(), before, 'nothing minted');
    assert.equal(lines.filter((line) => /link launch token: a request from another site was refused/.test(line)).length, foreign.length);
  });

  test("the launch page's own fetch still mints: same-origin, none, the public Origin, or no browser at all", async () => {
    const { page } = await launchUrls();
    // The token path as the page has it, from the configuration the page is served with.
    const html = await (await fetch(page)).text();
    const config = JSON.parse(/<script type="application\/json" id="payroll-link-launch">(.*?)<\/script>/s.exec(html)![1]!) as {
      tokenPath: string;
    };
    const tokenUrl = `${origin}${config.tokenPath}`;
    // The page's script posts '{}' as JSON (src/launch-page/launch-page.ts), which is what the cases below send.
    const script = await readFile(new URL('../../src/launch-page/launch-page.ts', import.meta.url), 'utf8');
    assert.match(
      script,
      /fetch\(config\.tokenPath, \{ method: 'POST', headers: \{ 'content-type': 'application\/json' \}, body: '\{\}' \}\)/,
    );
    const own: Record<string, string>[] = [pagesOwnFetch(), { 'sec-fetch-site': 'none' }, { origin }, {}];
    for (const headers of own) {
      const before = tokensAtTheSandbox();
      const answer = await postTo(tokenUrl, headers);
      assert.equal(answer.status, 200, `${JSON.stringify(headers)}: ${await answer.clone().text()}`);
      const { data, receipt } = (await answer.json()) as { data: { id: string }; receipt: string };
      assert.ok(data.id && receipt);
      assert.equal(tokensAtTheSandbox(), before + 1);
    }
  });
});

describe("the launch's result route", () => {
  test('a result another site sent is refused with 403 CROSS_SITE_REQUEST and runs nothing; the page’s own is taken', async () => {
    const { token, result } = await launchUrls();
    const minted = (await (await postTo(token, pagesOwnFetch())).json()) as { data: { id: string }; receipt: string };
    const report = JSON.stringify({ status: 'exit', linkTokenId: minted.data.id, exitReason: 'user_closed', receipt: minted.receipt });
    const before = results.length;
    const foreign: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of foreign) {
      assert.deepEqual(await refusal(await postTo(result, headers, report)), [403, 'CROSS_SITE_REQUEST'], JSON.stringify(headers));
    }
    assert.equal(results.length, before, 'onResult did not run');
    const taken = await postTo(result, pagesOwnFetch(), report);
    assert.equal(taken.status, 200, await taken.clone().text());
    assert.equal(results.length, before + 1);
    assert.equal(results.at(-1)!.status, 'exit');
  });
});
