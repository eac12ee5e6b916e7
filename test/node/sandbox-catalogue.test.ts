/** GET /employers and /v1/platforms: cursor pagination by the spec's four rules, filters, shapes. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CATALOGUE_SIZE, buildCatalogue } from '../../sandbox/state/catalogue.js';
import { EmployerSchema, PlatformSchema } from '../../sandbox/state/resources.js';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, assertError, rawRequest, startTestSandbox } from './sandbox-test-client.js';

describe('sandbox: catalogue', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startTestSandbox();
  });
  after(() => sandbox.close());

  it('walks every employer page by page: no cursor first, next_cursor after, null at the end', async () => {
    for (const path of ['/employers', '/v1/employers']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `limit=40${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const response = await api(sandbox, 'GET', `${path}?${query}`);
        assert.equal(response.status, 200, response.text);
        assert.equal(response.body.meta.count, response.body.data.length);
        for (const employer of response.body.data) seen.push(EmployerSchema.parse(employer).id);
        cursor = response.body.meta.next_cursor;
        pages += 1;
        assert.ok(pages <= 20, 'pagination does not end');
      } while (cursor !== null);
      assert.equal(pages, Math.ceil(CATALOGUE_SIZE.employers / 40));
      assert.equal(seen.length, CATALOGUE_SIZE.employers);
      assert.equal(new Set(seen).size, CATALOGUE_SIZE.employers);
    }
  });

  it('uses a default page size of 25 and ends with next_cursor null on an exact last page', async () => {
    const first = await api(sandbox, 'GET', '/employers');
    assert.equal(first.body.meta.count, 25);
    assert.equal(typeof first.body.meta.next_cursor, 'string');
    const whole = await api(sandbox, 'GET', '/employers?limit=100');
    let cursor = whole.body.meta.next_cursor;
    let last = whole;
    for (let page = 0; page < 5 && cursor !== null; page += 1) {
      last = await api(sandbox, 'GET', `/employers?limit=100&cursor=${encodeURIComponent(cursor)}`);
      cursor = last.body.meta.next_cursor;
    }
    assert.equal(cursor, null);
    assert.equal(last.body.meta.count, 100);
  });

  it('accepts limit and cursor in a JSON payload too, as the spec examples send them', async () => {
    const response = await rawRequest(sandbox, {
      method: 'GET',
      path: '/employers',
      headers: { 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08', 'content-type': 'application/json' },
      body: JSON.stringify({ limit: 3 }),
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.meta.count, 3);
    const next = await rawRequest(sandbox, {
      method: 'GET',
      path: '/employers',
      headers: { 'x-api-secret': sandbox.secret, 'service-version': '2025-07-08' },
      body: JSON.stringify({ limit: 3, cursor: response.body.meta.next_cursor }),
    });
    const viaQuery = await api(sandbox, 'GET', `/employers?limit=3&cursor=${encodeURIComponent(response.body.meta.next_cursor)}`);
    assert.deepEqual(next.body, viaQuery.body);
  });

  it('refuses a bad cursor with 400: garbage, tampered, or from another list', async () => {
    const first = await api(sandbox, 'GET', '/employers?limit=5');
    const cursor: string = first.body.meta.next_cursor;
    const [body, signature] = cursor.split('.');
    const forged = `${Buffer.from(JSON.stringify({ s: 'employers', a: 200 })).toString('base64url')}.${signature}`;
    const platforms = await api(sandbox, 'GET', '/v1/platforms?limit=5');
    for (const bad of ['garbage', `${body}.AAAA`, forged, `${cursor}.x`, platforms.body.meta.next_cursor]) {
      assertError(await api(sandbox, 'GET', `/employers?cursor=${encodeURIComponent(bad)}`), 400, 'INVALID_PARAMS');
    }
  });

  it('refuses limits outside 1..100 and unknown parameters', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'limit=-1', 'limit=2.5', 'limit=1&limit=2', 'sort=name']) {
      assertError(await api(sandbox, 'GET', `/employers?${query}`), 400, 'INVALID_PARAMS');
    }
  });

  it('lists platforms with their type, filtered by type', async () => {
    const all = await api(sandbox, 'GET', '/v1/platforms');
    assert.equal(all.body.meta.count, CATALOGUE_SIZE.platforms);
    assert.equal(all.body.meta.next_cursor, null);
    for (const platform of all.body.data) PlatformSchema.parse(platform);
    const timeTracking = await api(sandbox, 'GET', '/v1/platforms?type=time_and_attendance');
    assert.ok(timeTracking.body.meta.count > 0);
    assert.ok(timeTracking.body.data.every((platform: { type: string }) => platform.type === 'time_and_attendance'));
    const payroll = await api(sandbox, 'GET', '/v1/platforms?type=payroll');
    assert.equal(payroll.body.meta.count + timeTracking.body.meta.count, CATALOGUE_SIZE.platforms);
    assertError(await api(sandbox, 'GET', '/v1/platforms?type=banking'), 400, 'INVALID_PARAMS');
    const one = await api(sandbox, 'GET', `/v1/platforms/${payroll.body.data[0].id}`);
    assert.deepEqual(one.body, { data: payroll.body.data[0] });
    assertError(await api(sandbox, 'GET', '/v1/platforms/00000000-0000-4000-8000-000000000000'), 404, 'PLATFORM_NOT_FOUND');
  });

  it('is deterministic: the same catalogue, ids included, on every start; employers point at real platforms', () => {
    const first = buildCatalogue();
    const second = buildCatalogue();
    assert.deepEqual(first.employers, second.employers);
    assert.deepEqual(
      first.employers.map(({ item }) => item.id),
      sandbox.store.catalogue.employers.map(({ item }) => item.id),
    );
    for (const { item } of first.employers) assert.ok(first.platformById.has(item.platform_id));
    assert.ok(first.employers.some(({ item }) => first.platformById.get(item.platform_id)?.type === 'time_and_attendance'));
  });
});
