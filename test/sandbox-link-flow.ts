// The sandbox's hosted Link page (sandbox/link-page/), driven in its frame as a user with good credentials goes
// through it, for the tests that run a whole session against the real sandbox.
import type { Frame } from 'playwright-core';

/** From the intro to the result: a payroll employer, `user_good`'s login, the deposit switched, its Done screen showing. */
export async function switchDeposit(frame: Frame): Promise<void> {
  await frame.getByRole('button', { name: 'Continue' }).click();
  await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().click();
  await frame.getByLabel('Username').fill('user_good');
  await frame.getByLabel('Password').fill('pass_good');
  await frame.getByLabel('Password').press('Enter');
  await frame.getByRole('button', { name: 'Switch my deposit' }).click();
  await frame.getByRole('heading', { level: 1, name: 'Your direct deposit is switched' }).waitFor();
}

/**
 * Presses Done, which ends the session and removes the frame: not awaited (Playwright may wait on the gone frame's
 * input acknowledgement); the caller waits for what the page does next.
 */
export async function pressDone(frame: Frame): Promise<void> {
  const done = frame.getByRole('button', { name: 'Done' });
  await done.focus();
  void done.press('Enter').catch(() => {});
}
