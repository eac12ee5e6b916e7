/**
 * The exact origin of a Link URL (relative URLs resolve against the page), or
 * null when it is not one we hand a token to: https, or plain http on loopback
 * only (the sandbox on a developer's machine), never a token in clear text
 * across a network.
 */
export function linkOrigin(linkUrl: unknown): string | null {
  if (typeof linkUrl !== 'string' || linkUrl.trim() === '') return null;
  try {
    const url = new URL(linkUrl, document.baseURI);
    if (url.protocol === 'https:') return url.origin;
    return url.protocol === 'http:' && LOOPBACK.test(url.hostname) ? url.origin : null;
  } catch {
    return null;
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;
