/**
 * The sandbox's hosted Link page in Spanish, end to end in Debian's Chromium:
 * the real sandbox serves the page and its API; a host page on a second
 * loopback server embeds it and sends `init` with the page's language, as the
 * widget does. A whole session runs by Spanish roles and labels, with axe on
 * every screen; then the precedence: the Link token's `language` wins over
 * the init message's.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { axeViolations } from './axe-violations.js';
import { startLinkPageHost, type LinkPageHost } from './link-page-host.js';

describe('hosted Link page in Spanish', { timeout: 300_000 }, () => {
  let host: LinkPageHost;

  before(async () => {
    // A long pending phase, so user_pending holds the running screen however loaded the machine is; close() cancels it.
    host = await startLinkPageHost({
      lang: 'es',
      title: 'Página del integrador',
      frameTitle: 'Conectar nómina',
      pendingJobDelayMs: 120_000,
    });
  });

  after(async () => {
    await host?.close();
  });

  const createLinkToken = (extra?: Record<string, unknown>) => host.createLinkToken(extra);

  /** Opens the Link page in a fresh host page, with `language` in the init message (none when null); closes it after `steps`. */
  const withLinkPage = (token: string, language: string | null, steps: (frame: Frame, page: Page) => Promise<void>) =>
    host.withLinkPage(token, language ? { language } : {}, steps);

  /** Waits for the screen's level-1 heading, exactly. */
  const heading = (frame: Frame, name: string) => frame.getByRole('heading', { level: 1, name, exact: true }).waitFor();

  /** axe finds no violation in the frame, and the document says which language it speaks. */
  async function expectAccessible(frame: Frame, screen: string, lang: 'es' | 'en' = 'es'): Promise<void> {
    assert.equal(await frame.evaluate(() => document.documentElement.lang), lang, `<html lang> on the ${screen} screen`);
    assert.deepEqual(await axeViolations(frame), [], `axe violations on the ${screen} screen`);
  }

  test('a whole session in Spanish, driven by Spanish roles and labels, with axe clean on every screen', async () => {
    const token = await createLinkToken();
    await withLinkPage(token, 'es-MX', async (frame, page) => {
      await heading(frame, 'Acme Lending quiere cambiar tu depósito directo');
      assert.equal(await frame.title(), 'Conecta tu cuenta de nómina');
      await expectAccessible(frame, 'intro');
      await frame.getByRole('button', { name: 'Continuar' }).press('Enter');

      await heading(frame, 'Busca a tu empleador');
      const employers = frame.getByRole('list', { name: 'Resultados de la búsqueda' }).getByRole('button').filter({ hasText: 'Empleador' });
      await frame
        .getByRole('status')
        .filter({ hasText: /resultados mostrados; hay más\.$/ })
        .waitFor();
      await expectAccessible(frame, 'search');
      const employerName = (
        await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"] .name').first().textContent()
      )?.trim();
      assert.ok(employerName);
      await frame.getByLabel('Empleador o proveedor de nómina').fill(employerName);
      await employers.filter({ hasText: employerName }).first().press('Enter');

      await heading(frame, `Inicia sesión en ${employerName}`);
      assert.ok(await frame.getByRole('region', { name: 'Credenciales de prueba del sandbox' }).isVisible());
      await frame.getByLabel('Usuario').fill('user_good');
      await frame.getByLabel('Contraseña').fill('wrong_password');
      await frame.getByRole('button', { name: 'Iniciar sesión' }).press('Enter');
      await frame.getByRole('alert').filter({ hasText: 'Ese usuario y esa contraseña no funcionaron' }).waitFor();
      await expectAccessible(frame, 'login with an error');
      await frame.getByRole('button', { name: 'Usar user_good' }).press('Enter');
      await frame.getByRole('button', { name: 'Iniciar sesión' }).press('Enter');

      await heading(frame, 'Elige tu depósito');
      await frame.getByRole('radio', { name: /Un monto fijo/ }).check();
      await frame.getByLabel('Monto por pago (USD)').fill('0');
      await frame.getByRole('button', { name: 'Cambiar mi depósito' }).press('Enter');
      await frame.getByRole('alert').filter({ hasText: 'Escribe un monto mayor que cero.' }).waitFor();
      await expectAccessible(frame, 'allocation with an error');
      await frame.getByLabel('Monto por pago (USD)').fill('250.50');
      await frame.getByRole('button', { name: 'Cambiar mi depósito' }).press('Enter');

      await heading(frame, 'Tu depósito directo está cambiado');
      await expectAccessible(frame, 'success');
      await frame.getByRole('button', { name: 'Listo' }).press('Enter');
      await heading(frame, 'Sesión terminada');
      const exit = await page.waitForFunction(() => window.hostEvents.find((event) => event.name === 'exit')?.payload.reason);
      assert.equal(await exit.jsonValue(), 'completed');
      // The events are the protocol's, not the user's words: their names and screens stay as in English.
      const screens = await page.evaluate(() =>
        window.hostEvents.filter((e) => e.name === 'screen_transition').map((e) => e.payload.screenName),
      );
      assert.deepEqual(screens, ['intro', 'search', 'login', 'allocation', 'running', 'success']);
    });
  });

  /** From the search screen: the first payroll employer, logged in as `username` (test password). */
  async function logInAs(frame: Frame, username: string): Promise<void> {
    await heading(frame, 'Busca a tu empleador');
    await frame.locator('button.hit[data-kind="employer"][data-platform-type="payroll"]').first().press('Enter');
    await frame.getByLabel('Usuario').fill(username);
    await frame.getByLabel('Contraseña').fill('pass_good');
    await frame.getByLabel('Contraseña').press('Enter');
  }

  test('the one-time code and the running screens in Spanish, axe clean', async () => {
    const token = await createLinkToken({ skip_intro_screen: true });
    await withLinkPage(token, 'es', async (frame) => {
      await logInAs(frame, 'user_mfa');
      await heading(frame, 'Escribe tu código de un solo uso');
      await frame.getByLabel('Código de un solo uso').fill('123456');
      await frame.getByRole('button', { name: 'Verificar' }).press('Enter');
      await frame.getByRole('alert').filter({ hasText: 'Ese código no es correcto' }).waitFor();
      await expectAccessible(frame, 'mfa with an error');
      await frame.getByLabel('Código de un solo uso').fill('mfa_code');
      await frame.getByRole('button', { name: 'Verificar' }).press('Enter');
      await heading(frame, 'Elige tu depósito');
    });
    // user_pending stays on the running screen for the sandbox's pending delay: time enough for axe.
    await withLinkPage(await createLinkToken({ skip_intro_screen: true, allocation: { type: 'remainder' } }), 'es', async (frame) => {
      await logInAs(frame, 'user_pending');
      await heading(frame, 'Cambiando tu depósito directo');
      await expectAccessible(frame, 'running');
    });
  });

  test('a failed job and a spent token get Spanish error screens, axe clean', async () => {
    const token = await createLinkToken({ skip_intro_screen: true });
    await withLinkPage(token, 'es', async (frame) => {
      await logInAs(frame, 'user_error');
      await frame.getByRole('button', { name: 'Cambiar mi depósito' }).press('Enter');
      await heading(frame, 'Tu proveedor de nómina no pudo terminar');
      assert.ok(await frame.getByText('Código de error: JOB_FAILED').isVisible());
      await expectAccessible(frame, 'job error');
    });
    await withLinkPage(token, 'es', async (frame) => {
      await heading(frame, 'Este enlace ya no es válido');
      await expectAccessible(frame, 'invalid token');
      await frame.getByRole('button', { name: 'Cerrar', exact: true }).press('Enter');
      await heading(frame, 'Sesión terminada');
    });
  });

  test("the Link token's language wins over the init message's; other languages get English", async () => {
    await withLinkPage(await createLinkToken({ language: 'en' }), 'es', async (frame) => {
      await heading(frame, 'Acme Lending wants to switch your direct deposit');
      await expectAccessible(frame, 'intro (token en, page es)', 'en');
    });
    await withLinkPage(await createLinkToken({ language: 'es-US' }), null, async (frame) => {
      await heading(frame, 'Acme Lending quiere cambiar tu depósito directo');
      await expectAccessible(frame, 'intro (token es-US, no page language)');
    });
    await withLinkPage(await createLinkToken(), 'fr-CA', async (frame) => {
      await heading(frame, 'Acme Lending wants to switch your direct deposit');
      await expectAccessible(frame, 'intro (page fr-CA)', 'en');
    });
  });
});
