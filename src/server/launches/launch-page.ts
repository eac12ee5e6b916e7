/**
 * The pages a launch URL answers with: the flow's own page (the element behind its button, nothing minted until the
 * user taps it), and the plain pages of a link that has expired, was revoked, is unknown, or has already connected an
 * account. Each is one self-contained document: one inline script by a fresh nonce, no script file, and headers that
 * keep it out of frames, caches, referrers and search engines.
 */
import { LAUNCH_PAGE_SCRIPT } from './launch-page-script.js';
import { escapeHtml } from '../../shared/escape-html.js';

/** The page's languages: Spanish where the user's browser prefers it, as the element's own words are; English otherwise. */
type PageLanguage = 'en' | 'es';

/** The page's own words (the button's and the modal's are the element's). */
const WORDS = {
  en: {
    heading: 'Connect your payroll account',
    intro: 'Tap the button to sign in to your payroll provider. Your credentials go to the provider only.',
    expired: 'This link has expired. Ask for a new one.',
    expiredWithNewLink: 'This link has expired.',
    newLink: 'Get a new link',
    until: ['This link works until {t}.', 'This link works until {t}.'],
    soon: 'This link stops working in less than 2 minutes.',
    revoked: 'This link is no longer valid. Ask for a new one.',
    unknown: 'This link is not valid. Check that you opened the whole link.',
    connected: 'Your payroll account is already connected. You can close this page.',
    tooMany: 'This link has been used too many times. Ask for a new one.',
    finished: 'Done. You can close this page.',
    left: 'You can close this page, or tap the button to try again.',
    unconfirmed: 'We could not confirm the result. Check your connection and try again.',
    finishing: 'Finishing: your payroll provider is completing the switch. This can take a minute.',
    back: 'Return to the app',
  },
  es: {
    heading: 'Conecta tu cuenta de nómina',
    intro: 'Toca el botón para entrar con tu proveedor de nómina. Tus credenciales solo van a tu proveedor.',
    expired: 'Este enlace ha caducado. Pide uno nuevo.',
    expiredWithNewLink: 'Este enlace ha caducado.',
    newLink: 'Consigue un enlace nuevo',
    until: ['Este enlace funciona hasta las {t}.', 'Este enlace funciona hasta el {t}.'],
    soon: 'Este enlace deja de funcionar en menos de 2 minutos.',
    revoked: 'Este enlace ya no es válido. Pide uno nuevo.',
    unknown: 'Este enlace no es válido. Comprueba que abriste el enlace completo.',
    connected: 'Tu cuenta de nómina ya está conectada. Puedes cerrar esta página.',
    tooMany: 'Este enlace se ha usado demasiadas veces. Pide uno nuevo.',
    finished: 'Listo. Puedes cerrar esta página.',
    left: 'Puedes cerrar esta página, o tocar el botón para intentarlo de nuevo.',
    unconfirmed: 'No pudimos confirmar el resultado. Revisa tu conexión e inténtalo de nuevo.',
    finishing: 'Terminando: tu proveedor de nómina está completando el cambio. Puede tardar un minuto.',
    back: 'Volver a la app',
  },
} as const;

/** A plain page's reason. */
export type LaunchPageNotice = 'expired' | 'revoked' | 'unknown' | 'connected';

/** Words with a time in them (`{t}`), and the `Intl.DateTimeFormat` options the page writes it with. */
type UntilWords = readonly [string, Intl.DateTimeFormatOptions];

/**
 * What the flow's page needs to know: where its token and result routes are, the Link page it frames, how long the
 * link still works, the app's page for a new link, its words.
 */
export interface LaunchPageConfig {
  tokenPath: string;
  resultPath: string;
  linkUrl: string;
  /**
   * Seconds the link still works, by the server's clock when it sent the page: the page adds them to its own clock, so
   * that a device clock set wrong cannot make it show another deadline than the one the user reads on that clock.
   */
  expiresIn: number;
  /** `createLinkLaunches`' `newLinkUrl`: where the user gets a new link once this one has expired; null: none. */
  newLinkUrl: string | null;
  /** "Works until", and how its time `{t}` is written: on the same day, and on another day (with the date). */
  until: readonly [UntilWords, UntilWords];
  words: {
    tooMany: string;
    finished: string;
    left: string;
    unconfirmed: string;
    finishing: string;
    back: string;
    expired: string;
    revoked: string;
    connected: string;
    newLink: string;
    soon: string;
  };
}

/** The words the page's script shows, in `language`; with `newLinkUrl`, the expiry's words leave the asking to its link. */
export function scriptWords(language: PageLanguage, newLinkUrl: string | null): LaunchPageConfig['words'] {
  const { tooMany, finished, left, unconfirmed, finishing, back, revoked, connected, newLink, soon } = WORDS[language];
  const expired = expiredWords(language, newLinkUrl);
  return { tooMany, finished, left, unconfirmed, finishing, back, expired, revoked, connected, newLink, soon };
}

/** The page's "works until" words in `language`: the time alone on the same day, the date too on another. */
export function untilWords(language: PageLanguage): LaunchPageConfig['until'] {
  const [today, later] = WORDS[language].until;
  return [
    [today, { timeStyle: 'short' }],
    [later, { dateStyle: 'long', timeStyle: 'short' }],
  ];
}

const expiredWords = (language: PageLanguage, newLinkUrl: string | null) => WORDS[language][newLinkUrl ? 'expiredWithNewLink' : 'expired'];

/** The language the user's browser prefers among the page's: its first `Accept-Language` entry that is Spanish or English. */
export function pageLanguage(request: Request): PageLanguage {
  for (const entry of (request.headers.get('accept-language') ?? '').split(',')) {
    const tag = entry.split(';')[0]!.trim().toLowerCase();
    if (tag === 'es' || tag.startsWith('es-')) return 'es';
    if (tag === 'en' || tag.startsWith('en-')) return 'en';
  }
  return 'en';
}

/** JSON inside a `<script type="application/json">`: nothing in it can close the element or open a comment. */
const jsonInHtml = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/** The page's own styles: full-screen on a phone, centred on a desktop, light and dark. */
const STYLES = `:root{color-scheme:light dark;font-family:system-ui,sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:Canvas;color:CanvasText}
main{box-sizing:border-box;width:100%;max-width:28rem;padding:2rem 1.5rem;text-align:center}
h1{font-size:1.4rem;margin:0 0 .75rem}p{line-height:1.5;margin:0 0 1.5rem}`;

/** A fresh nonce for one response: 128 random bits. */
function nonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

/** The headers of every page: its own CSP (by `nonce`), and no referrer, cache, robots or framing but what was allowed. */
function pageHeaders(scriptNonce: string, linkOrigin: string | null, frameAncestors: readonly string[]): Headers {
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${scriptNonce}'`,
    `style-src 'nonce-${scriptNonce}' 'self'`,
    "connect-src 'self'",
    `frame-src ${linkOrigin ?? "'none'"}`,
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length > 0 ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
  return new Headers({
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': csp,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
    'x-content-type-options': 'nosniff',
  });
}

function document(language: PageLanguage, styleNonce: string, body: string): string {
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(WORDS[language].heading)}</title>
<style nonce="${styleNonce}">${STYLES}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The flow's page: the element behind its own button, its configuration as data, and the one script. */
export function flowPage(language: PageLanguage, config: LaunchPageConfig, frameAncestors: readonly string[]): Response {
  const pageNonce = nonce();
  const words = WORDS[language];
  const body = `<h1>${escapeHtml(words.heading)}</h1>
<p>${escapeHtml(words.intro)}</p>
<p id="payroll-link-launch-expiry"></p>
<payroll-link link-url="${escapeHtml(config.linkUrl)}" color-scheme="auto"></payroll-link>
<p id="payroll-link-launch-status" role="status" tabindex="-1"></p>
<script type="application/json" id="payroll-link-launch">${jsonInHtml(config)}</script>
<script nonce="${pageNonce}">${LAUNCH_PAGE_SCRIPT}</script>`;
  const headers = pageHeaders(pageNonce, new URL(config.linkUrl).origin, frameAncestors);
  return new Response(document(language, pageNonce, body), { status: 200, headers });
}

/**
 * A page that only says something: an expired, revoked or unknown link, or one whose account is connected. An expired
 * one links to `newLinkUrl`, the app's way to a new link, when there is one.
 */
export function noticePage(
  language: PageLanguage,
  notice: LaunchPageNotice,
  frameAncestors: readonly string[],
  newLinkUrl: string | null = null,
): Response {
  const pageNonce = nonce();
  const status = { expired: 410, revoked: 410, unknown: 404, connected: 200 }[notice];
  const words = WORDS[language];
  const text =
    notice === 'expired' && newLinkUrl
      ? `${escapeHtml(expiredWords(language, newLinkUrl))} <a href="${escapeHtml(newLinkUrl)}">${escapeHtml(words.newLink)}</a>`
      : escapeHtml(words[notice]);
  const body = `<h1>${escapeHtml(words.heading)}</h1>
<p role="status">${text}</p>`;
  return new Response(document(language, pageNonce, body), { status, headers: pageHeaders(pageNonce, null, frameAncestors) });
}
