/** The sandbox serves the hosted Link page: HTML with strict headers, the bundled script, and a clear 503 without a page. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../sandbox/http/errors.js';
import { addLinkPageRoutes } from '../../sandbox/link-page/link-page.js';
import { buildLinkPage } from '../../sandbox/link-page/link-page-build.js';
import { Router } from '../../sandbox/http/router.js';
import { assertError, startTestSandbox } from './sandbox-test-client.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; frame-ancestors *";

describe('sandbox: Link page', () => {
  it('serves /link with the contract headers and /link/app.js (bundled from sandbox/link-page/app/link-app.ts) as a script', async () => {
    const sandbox = await startTestSandbox();
    try {
      const page = await fetch(`${sandbox.url}/link`);
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('content-security-policy'), CSP);
      assert.equal(page.headers.get('referrer-policy'), 'no-referrer');
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(await page.text(), /<script type="module" src="\/link\/app\.js"><\/script>/);
      const script = await fetch(`${sandbox.url}/link/app.js`);
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
      const code = await script.text();
      assert.ok(code.length > 100);
      // The secret is server-side only; it must never reach the page or its script.
      assert.ok(!code.includes(sandbox.secret));
    } finally {
      await sandbox.close();
    }
  });

  it('answers 503 with a clear message while the page source is missing', async () => {
    const build = await buildLinkPage('/nonexistent/link-app.ts');
    assert.equal(build.ok, false);
    const router = new Router<null>();
    addLinkPageRoutes(router, build);
    for (const path of ['/link', '/link/app.js']) {
      const request = { method: 'GET', url: new URL(`http://127.0.0.1${path}`), headers: new Headers(), body: new Uint8Array() };
      await assert.rejects(
        Promise.resolve().then(() => router.handle(request, null)),
        (error: unknown) => error instanceof ApiError && error.status === 503 && /does not exist/.test(error.message),
      );
    }
  });

  it('keeps /link routes apart from the API: no secret needed, 404 and 405 in the error body', async () => {
    const sandbox = await startTestSandbox();
    try {
      const unknown = await fetch(`${sandbox.url}/link/nothing-here`);
      const body = await unknown.json();
      assertError({ status: unknown.status, headers: unknown.headers, body, text: JSON.stringify(body) }, 404, 'ROUTE_NOT_FOUND');
      const wrong = await fetch(`${sandbox.url}/link/api/sessions`, { method: 'GET' });
      assert.equal(wrong.status, 405);
      assert.equal(wrong.headers.get('allow'), 'POST');
    } finally {
      await sandbox.close();
    }
  });
});
