/**
 * Review finding 6 (#48): the redirect URIs of createLinkLaunches are screened by an allowlist, not a denylist:
 * `https:`, `http:` on loopback, an app's reverse-DNS scheme (RFC 8252 §7.1), or a scheme listed on purpose in
 * `allowCustomSchemes`. Everything here is checked when the launches are created: no request is made, so the client
 * points at a port nothing listens on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createPayrollClient } from '../../src/server/index.js';
import { createLinkLaunches, type LinkLaunchesOptions } from '../../src/server/launches.js';

const client = createPayrollClient({ apiSecret: 'sandbox_redirect_schemes', baseUrl: 'http://127.0.0.1:9', version: '2025-07-08' });
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

const launchesWith = (overrides: Partial<LinkLaunchesOptions>) =>
  createLinkLaunches({
    client,
    orgName: 'Acme Lending',
    solution: 'Deposit Switch',
    features: ['direct_deposit_switch'],
    linkUrl: 'https://link.service.example/link',
    publicUrl: 'https://app.example.com/link',
    secret: 'launch-secret-0123456789abcdef-0123456789',
    log: quiet,
    onResult: () => {},
    ...overrides,
  });

/** The ConfigError createLinkLaunches throws for these options (the assertion fails if it throws none). */
const refusal = (overrides: Partial<LinkLaunchesOptions>): string => {
  try {
    launchesWith(overrides);
  } catch (error) {
    assert.equal((error as Error).name, 'ConfigError', String(error));
    return (error as Error).message;
  }
  assert.fail(`accepted ${JSON.stringify(overrides)}`);
};

/** The review's 17 schemes that the system (or a system app) handles itself, each accepted before. */
const REVIEW_SCHEMES = [
  'smb://fileserver/share',
  'search-ms:query=invoice',
  'itms-services://?action=download-manifest&url=https://evil.example/m.plist',
  'x-safari-https://evil.example/',
  'market://details?id=com.evil',
  'ms-settings:privacy',
  'shell:startup',
  'jar:https://evil.example/a.jar!/x',
  'afp://fileserver/share',
  'nfs://fileserver/share',
  'ssh://evil.example',
  'telnet://evil.example',
  'itms-apps://apps.apple.com/app/id1',
  'facetime:+15550100',
  'sip:alice@evil.example',
  'skype:alice?call',
  'steam://run/1',
];

describe('review finding 6: redirect schemes are an allowlist', () => {
  test('review finding 6: the 17 schemes the system handles itself are refused, each with a ConfigError saying why', () => {
    assert.equal(REVIEW_SCHEMES.length, 17);
    for (const uri of REVIEW_SCHEMES) {
      const message = refusal({ redirectUris: [uri] });
      assert.match(message, /redirectUris/, uri);
      assert.ok(message.includes(uri), `${uri}: ${message}`);
      assert.match(message, /reverse-DNS|handles itself/, `${uri}: ${message}`);
    }
  });

  test('review finding 6: a scheme without a dot (acmeapp://) is refused by default, naming both ways out', () => {
    const message = refusal({ redirectUris: ['acmeapp://done'] });
    assert.match(message, /acmeapp:\/\/done/);
    assert.match(message, /reverse-DNS scheme such as com\.acme\.app:/);
    assert.match(message, /allowCustomSchemes/);
  });

  test('review finding 6: a listed custom scheme is accepted; a reverse-DNS scheme, https and loopback http need no listing', () => {
    launchesWith({ redirectUris: ['acmeapp://done'], allowCustomSchemes: ['acmeapp'] });
    launchesWith({
      redirectUris: ['com.acme.app:/done', 'com.acme.app://done', 'https://app.example.com/done', 'http://127.0.0.1:3000/done'],
    });
    // Listing one scheme allows that one only.
    assert.match(refusal({ redirectUris: ['otherapp://done'], allowCustomSchemes: ['acmeapp'] }), /otherapp:\/\/done/);
  });

  test('review finding 6: allowCustomSchemes takes scheme names only, and never one the browser or the system handles itself', () => {
    for (const scheme of ['javascript', 'data', 'file', 'intent', 'smb', 'ms-settings', 'x-safari-https', 'itms-services']) {
      const message = refusal({ redirectUris: [`${scheme}:x`], allowCustomSchemes: [scheme] });
      assert.match(message, new RegExp(`allowCustomSchemes\\.0: ${scheme} is a scheme the browser or the system handles itself`), message);
    }
    for (const scheme of ['http', 'https']) assert.match(refusal({ allowCustomSchemes: [scheme] }), /has its own rule/);
    for (const scheme of ['AcmeApp', 'acmeapp:', 'acme app', '1app', '']) {
      assert.match(refusal({ allowCustomSchemes: [scheme] }), /allowCustomSchemes\.0: must be a scheme name in lower case/, scheme);
    }
  });

  test('review finding 6: the checks kept from before still hold for an allowed scheme', () => {
    for (const [uri, why] of [
      ['http://app.example.com/done', /http: off loopback/],
      ['https://user:pw@app.example.com/done', /user name or password/],
      ['com.acme.app:/done#x', /fragment/],
      ['acmeapp://done#x', /fragment/],
      ['not a uri', /not an absolute URI/],
    ] as const) {
      assert.match(refusal({ redirectUris: [uri], allowCustomSchemes: ['acmeapp'] }), why, uri);
    }
  });
});
