/**
 * The webhook's shared secret, carried in the URL the integrator registers with the service (the spec shows no signing
 * scheme, so this is what works without one). Compared in constant time: both sides are hashed with SHA-256 (Web
 * Crypto, in every runtime) and the digests compared byte by byte without an early exit, so the time taken says nothing
 * about how much of a guess was right.
 */

const encoder = new TextEncoder();

async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** Whether `candidate` equals `secret`, taking the same time whatever the candidate. */
export async function secretsMatch(candidate: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(candidate), digest(secret)]);
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

/**
 * Whether the request's URL carries `secret`: as the query value `secret` (`/api/webhooks?secret=…`) or as the last
 * path segment (`/api/webhooks/…`). Both places are checked every time, so the answer takes as long whichever one holds
 * it.
 */
export async function urlCarriesSecret(request: Request, secret: string): Promise<boolean> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return false;
  }
  const lastSegment = decodeURIComponentSafely(url.pathname.split('/').at(-1) ?? '');
  const [inQuery, inPath] = await Promise.all([
    secretsMatch(url.searchParams.get('secret') ?? '', secret),
    secretsMatch(lastSegment, secret),
  ]);
  return inQuery || inPath;
}

function decodeURIComponentSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '';
  }
}
