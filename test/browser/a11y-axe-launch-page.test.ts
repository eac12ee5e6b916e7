/**
 * Issue 49's axe bar on the launch page (`payroll-link/server/launches`: the real page with its real built script,
 * minting from the real sandbox), framed by the test page and same-origin with it and with the Link page its modal
 * opens (test/browser/real-sandbox.mjs), so axe runs in the page and in the Link frame in every engine. At each
 * state axe checks the launch page with its Link frame (when open) and the Link frame on its own: no violation of
 * WCAG 2.0-2.2 A/AA nor of `landmark-unique`. States: before the tap (the "works until" sentence), the modal open
 * on the Link page's intro, Done after a completed flow (the page's status, focus on it), and a link running out
 * on the real clock (8 s links: the two-minute warning at once, then the expiry with its "Get a new link", then the
 * expired link's own page). In English and Spanish (the page's `Accept-Language`, set by the test server: no engine
 * here lets a test set a frame's request headers) and, in Chromium only, dark (`prefers-color-scheme`, emulated
 * with `emulateMedia`; Firefox's WebDriver BiDi and WebKitGTK's WebDriver have no such emulation here).
 */
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import { violations } from './a11y/axe.js';
import { LaunchPage, STATUS_ID, plain, type LaunchKind } from './a11y/launch-page.js';
import { until } from './a11y/sandbox-link.js';
import { engine } from './engine.js';

type PageScheme = 'light' | 'dark' | 'spanish';

/** The page's words a test waits for, in each language. */
const WORDS = {
  en: {
    until: /^This link works until .+\.$/,
    soon: 'This link stops working in less than 2 minutes.',
    expired: 'This link has expired. Get a new link',
    done: /^Done\. You can close this page\.$/,
  },
  es: {
    until: /^Este enlace funciona hasta (las|el) .+\.$/,
    soon: 'Este enlace deja de funcionar en menos de 2 minutos.',
    expired: 'Este enlace ha caducado. Consigue un enlace nuevo',
    done: /^Listo\. Puedes cerrar esta página\.$/,
  },
} as const;

/** Whether `doc`'s body is drawn dark: its background's channels average under half. */
function isDark(doc: Document): boolean {
  const channels = getComputedStyle(doc.body)
    .backgroundColor.match(/\d+(\.\d+)?/g)!
    .slice(0, 3)
    .map(Number);
  return channels.reduce((sum, channel) => sum + channel, 0) / 3 < 128;
}

/**
 * Runs axe on the launch page (its Link frame in the run, when open) and on the Link frame alone, and notes what they
 * find under `state`; first checks the page speaks and draws in `scheme`, so a pass says what it claims.
 */
async function audit(found: string[], page: LaunchPage, state: string, scheme: PageScheme): Promise<void> {
  const doc = page.document;
  const dark = scheme === 'dark';
  expect(doc.documentElement.lang, `${state}: the launch page's language`).to.equal(scheme === 'spanish' ? 'es' : 'en');
  expect(isDark(doc), `${state}: the launch page's background (Canvas) is dark`).to.equal(dark);
  const link = page.linkDocument();
  if (link) {
    expect(link.documentElement.lang, `${state}: the Link page's language`).to.match(scheme === 'spanish' ? /^es\b/ : /^en\b/);
    // The page's element asks for `auto`: the Link page follows the user's preference itself.
    expect(link.documentElement.dataset['colorScheme'], `${state}: the scheme the Link page was asked for`).to.equal('auto');
    expect(getComputedStyle(link.body).colorScheme, `${state}: the Link page's scheme`).to.equal(dark ? 'dark' : 'light');
  }
  await page.loadAxe();
  for (const line of await violations(doc, link ? [link] : [])) found.push(`${state}, launch page: ${line}`);
  if (link) for (const line of await violations(link)) found.push(`${state}, Link frame: ${line}`);
}

const kindOf = (scheme: PageScheme, short: boolean): LaunchKind =>
  `${short ? 'launch-short' : 'launch'}${scheme === 'spanish' ? '-es' : ''}` as LaunchKind;

// Dark only where prefers-color-scheme can be emulated: see the file's comment.
const schemes: PageScheme[] = engine === 'chromium' ? ['light', 'dark', 'spanish'] : ['light', 'spanish'];

describe(`axe on the launch page (${engine}${engine === 'chromium' ? '' : ': light and Spanish; dark in Chromium only'})`, function () {
  // A whole flow, or a link's seconds running out, with axe runs in between, on a loaded 2-core machine: a bound.
  this.timeout(90_000);
  let page: LaunchPage | undefined;

  afterEach(async () => {
    page?.remove();
    page = undefined;
    if (engine === 'chromium') await emulateMedia({ colorScheme: 'light' });
  });

  for (const scheme of schemes) {
    const words = WORDS[scheme === 'spanish' ? 'es' : 'en'];

    it(`${scheme}: before the tap, the modal open on the Link page's intro, and Done (its status, focused)`, async () => {
      if (scheme === 'dark') await emulateMedia({ colorScheme: 'dark' });
      const found: string[] = [];
      page = await LaunchPage.open(kindOf(scheme, false));
      expect(page.expiry).to.match(words.until);
      expect(plain(page.status.textContent), 'no warning yet').to.equal('');
      await audit(found, page, 'before the tap', scheme);
      await page.tap();
      await audit(found, page, 'the modal open on the intro', scheme);
      await page.completeAndDone(words.done);
      await until('the modal gone', () => page!.modalDialog() === null);
      expect(page.document.activeElement?.id, 'focus after Done').to.equal(STATUS_ID);
      expect(page.element.hidden, 'no button after the link connected').to.equal(true);
      await audit(found, page, 'done', scheme);
      expect(found).to.deep.equal([]);
    });

    it(`${scheme}: a link running out: the warning, the expiry with its new link, the expired link's own page`, async () => {
      if (scheme === 'dark') await emulateMedia({ colorScheme: 'dark' });
      const found: string[] = [];
      page = await LaunchPage.open(kindOf(scheme, true));
      // An 8 s link is inside its last two minutes from the start: the warning comes at once.
      await until('the warning', () => plain(page!.status.textContent) === words.soon);
      await audit(found, page, 'the warning', scheme);
      await until('the expiry', () => plain(page!.status.textContent) === words.expired);
      expect(page.element.hidden, 'no button to a flow that cannot start').to.equal(true);
      expect(page.status.querySelector('a')?.getAttribute('href')).to.match(/\/a11y\/new-link$/);
      await audit(found, page, 'expired', scheme);
      // The page says so up to 2 s early (its deadline in whole seconds, and a second's slack): the server's own
      // deadline passes before the link's own page is asked for again.
      await until("the server's deadline", () => Date.now() >= page!.expiresAt);
      await page.reload();
      expect(page.document.querySelector('payroll-link'), "the expired link's own page: no flow").to.equal(null);
      expect(plain(page.document.querySelector('[role="status"]')?.textContent), "the expired link's own page").to.equal(words.expired);
      await audit(found, page, "the expired link's own page", scheme);
      expect(found).to.deep.equal([]);
    });
  }

  it('the axe audit can fail: an unnamed image in the launch page is found; one in its Link frame, by both runs', async () => {
    page = await LaunchPage.open('launch');
    const doc = page.document;
    const image = doc.querySelector('main')!.appendChild(Object.assign(doc.createElement('img'), { src: '/a11y/no-such-image.png' }));
    const found: string[] = [];
    await audit(found, page, 'before the tap, an unnamed image', 'light');
    expect(found.filter((line) => line.includes('image-alt'))).to.have.length(1);
    image.remove();
    await page.tap();
    const link = page.linkDocument()!;
    link.body.append(Object.assign(link.createElement('img'), { src: '/link/no-such-image.png' }));
    found.length = 0;
    await audit(found, page, 'the intro, an unnamed image in the Link frame', 'light');
    // The launch page's run sees into its Link frame (`iframes`), and the frame's own run sees it too.
    expect(found.filter((line) => line.includes('image-alt'))).to.have.length(2);
  });
});
