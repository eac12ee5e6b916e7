/**
 * Review finding 9 (#48): a `;` in a `frameAncestors` entry appended a CSP directive (`https://app.example;script-src`
 * is a URL whose origin is itself, so it passed as an origin, and the page's header became
 * `frame-ancestors https://app.example;script-src`), and a `,` would start a second policy. An entry with `;`, `,`,
 * whitespace or a control character is now a ConfigError that says why.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, createPayrollClient } from '../../src/server/index.js';
import { createLinkLaunches } from '../../src/server/launches.js';

const client = createPayrollClient({ apiSecret: 'sk_frame_ancestors_0123456789', baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' });

function launchesFraming(frameAncestors: string[]) {
  return createLinkLaunches({
    client,
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: 'https://link.example.com/link',
    publicUrl: 'https://app.example.com/link',
    secret: 'launch-secret-frames-0123456789abcdef-0123',
    log: { info: () => {}, warn: () => {}, error: () => {} },
    onResult: () => {},
    frameAncestors,
  });
}

const refused: [entry: string, breaks: string][] = [
  ['https://app.example;script-src', "a ';' starts another CSP directive"],
  ['https://app.example;frame-ancestors', "a ';' starts another CSP directive"],
  ['https://app.example,https://evil.example', "a ',' starts another policy"],
  ['https://app.example\n', 'a line break'],
  ['https://app.example\r\nSet-Cookie:x', 'a line break'],
  [' https://app.example', 'whitespace'],
  ['https://app.exa\tmple', 'whitespace'],
  ['https://app.example\u2028', 'a line break'],
  ['https://app.exa\u0000mple', 'a control character'],
];

/** The entry as a test name can show it: JSON, with the line separators (which JSON leaves raw) escaped too. */
const shown = (entry: string) => JSON.stringify(entry).replace(/[\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16)}`);

for (const [entry, breaks] of refused) {
  test(`review finding 9: a frameAncestors entry ${shown(entry)} (${breaks}) is a ConfigError that says why, not a CSP of its making`, () => {
    assert.throws(
      () => launchesFraming(['https://ok.example', entry]),
      (error: unknown) =>
        error instanceof ConfigError &&
        /frameAncestors\.1: must be an origin alone: no ';', ',', whitespace or control character/.test(error.message) &&
        !error.message.includes(entry),
    );
  });
}

test('review finding 9: origins alone are still taken, and the page frames exactly those', async () => {
  const launches = launchesFraming(['https://app.example', 'http://localhost:5173']);
  const { url } = await launches.create({ endUserId: 'user-frames' });
  const page = await launches.handle(new Request(url));
  assert.equal(page.status, 200);
  const csp = page.headers.get('content-security-policy') ?? '';
  assert.match(csp, /(^|; )frame-ancestors https:\/\/app\.example http:\/\/localhost:5173(;|$)/);
});
