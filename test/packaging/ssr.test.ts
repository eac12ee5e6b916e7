// Server-side rendering: the packed package (node_modules/payroll-link here, from install-packed.ts)
// imports in Node, where there is no window or document, and React renders the wrapper to HTML.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { installedPackageDir } from './install-packed.js';

// Computed specifiers: the root type-check runs before the package is built, so it must not resolve
// them; the types are the sources' (the packed declarations are checked with the example apps).
const packaged = (subpath: '' | '/core' | '/react') => `payroll-link${subpath}`;

test('the package resolves to the packed one, not the sources', () => {
  for (const subpath of ['', '/core', '/react'] as const) {
    const file = fileURLToPath(import.meta.resolve(packaged(subpath)));
    assert.ok(file.startsWith(`${installedPackageDir}/dist/`), file);
  }
});

test('importing ., ./core and ./react in Node does not throw', async () => {
  assert.equal(typeof (globalThis as { window?: unknown }).window, 'undefined');
  const main = (await import(packaged(''))) as typeof import('../../src/index.js');
  assert.equal(typeof main.PayrollLink, 'function');
  assert.equal(typeof main.openLink, 'function');
  const core = (await import(packaged('/core'))) as typeof import('../../src/core/index.js');
  assert.equal(typeof core.openLink, 'function');
  const react = (await import(packaged('/react'))) as typeof import('../../src/frameworks/react.js');
  assert.equal(typeof react.PayrollLink, 'object', 'a forwardRef component');
});

test("React's renderToString of the wrapper produces the element's tag", async () => {
  const { PayrollLink } = (await import(packaged('/react'))) as typeof import('../../src/frameworks/react.js');
  const html = renderToString(
    createElement(
      PayrollLink,
      { tokenUrl: '/api/link-token', linkUrl: 'https://link.example.com/link', prefetch: true, onSuccess: () => undefined },
      'Connect payroll',
    ),
  );
  assert.match(html, /^<payroll-link[\s>]/);
  assert.match(html, /Connect payroll<\/payroll-link>$/);
});
