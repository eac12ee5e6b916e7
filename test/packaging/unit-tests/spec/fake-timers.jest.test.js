// mockLink() under Jest's fake timers (#52): `jest.useFakeTimers()` fakes `queueMicrotask` and `setTimeout` too, and an
// app's test often turns them on. The scripted session and `opened()`'s bound must run on regardless. Jest only
// (`jest` from @jest/globals, ESM mode); vitest.config.js leaves *.jest.test.js out.
/* global afterEach, expect, it -- given by Jest */
import { jest } from '@jest/globals';
import 'payroll-link';
import { findLinkButton, mockLink } from 'payroll-link/testing';

afterEach(() => {
  jest.useRealTimers();
  document.body.innerHTML = '';
});

it("plays a session into <payroll-link> while the test's timers are fake", async () => {
  jest.useFakeTimers();
  const link = mockLink();
  document.body.innerHTML = '<payroll-link token-url="/api/link-token" link-url="https://link.example.com/link"></payroll-link>';
  const element = document.querySelector('payroll-link');
  const exits = [];
  element.addEventListener('link-exit', (event) => exits.push(event.detail.reason));
  (await findLinkButton()).click();
  await link.opened();
  link.success();
  link.exit();
  expect(exits).toEqual(['completed']);
  link.restore();
});
