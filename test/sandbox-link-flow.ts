// The sandbox's hosted Link page (sandbox/link-page/), driven in its frame as a user with good credentials goes
// through it, for the tests that run a whole session against the real sandbox. Its roles, names and selectors are the
// kit's steps (src/testing/link-flow-steps.ts, which `linkFlow(page)` follows too), so that the page's contract is
// written once. Not `linkFlow` itself: these tests hold the frame (a `Frame`) and check what happens between the
// screens and after Done themselves.
import type { Frame } from 'playwright-core';
import { LINK_SCREENS, SANDBOX_CREDENTIALS, textPattern } from '../src/testing/link-flow-steps.js';

const { intro, search, login, allocation, success } = LINK_SCREENS;

/** From the intro to the result: a payroll employer, `user_good`'s login, the deposit switched, its Done screen showing. */
export async function switchDeposit(frame: Frame): Promise<void> {
  await frame.getByRole('button', { name: textPattern(intro.controls.continue.name) }).click();
  await frame.locator(search.controls.anyPayrollEmployer.css).first().click();
  await frame.getByRole('textbox', { name: textPattern(login.controls.username.name) }).fill('user_good');
  const password = frame.getByRole('textbox', { name: textPattern(login.controls.password.name) });
  await password.fill(SANDBOX_CREDENTIALS.password);
  await password.press('Enter');
  await frame.getByRole('button', { name: textPattern(allocation.controls.submit.name) }).click();
  await frame.getByRole('heading', { level: 1, name: textPattern(success.headings[0]) }).waitFor();
}

/**
 * Presses Done, which ends the session and removes the frame: not awaited (Playwright may wait on the gone frame's
 * input acknowledgement); the caller waits for what the page does next.
 */
export async function pressDone(frame: Frame): Promise<void> {
  const done = frame.getByRole('button', { name: textPattern(success.controls.done.name) });
  await done.focus();
  void done.press('Enter').catch(() => {});
}
