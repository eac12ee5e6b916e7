/**
 * A launch URL's last path segment: the launch's fields packed in binary and sealed with AES-GCM (WebCrypto, so it runs
 * on every runtime the server half does). Whoever reads the URL learns nothing of what it carries (the end user, the
 * state, where it returns to), and cannot alter or forge one: the tag fails and the page answers 404. The key is
 * derived from the integrator's launch secret with HKDF under a label of its own, and the seal is bound to `publicUrl`,
 * so a URL of one deployment opens nothing at another with the same secret. Any instance that has the secret opens it:
 * nothing is stored.
 */
import { hex, uuidOfBytes } from '../../shared/hex.js';

/** What a launch carries from `create()` to the page, on any instance. */
export interface LaunchFields {
  /** The public launch id (a UUID): named in the redirect and `onResult`, and opens nothing by itself. */
  id: string;
  /** The end user the page mints tokens for. */
  endUserId: string;
  /** The app's opaque value, handed back in the redirect; null when none was given. */
  state: string | null;
  /**
   * Where the flow returns to, as a tag of the URI (8 hex digits of its SHA-256: see `redirectTag`), looked up among
   * `redirectUris` by value, so that an instance whose list is in another order still finds it; null when nowhere
   * (the page's own end screen).
   */
  redirectTag: string | null;
  /** The account to reconnect (a UUID), or null for a new connection. */
  accountId: string | null;
  /** When the URL stops working, in whole seconds since 1970 (UTC). */
  expiresAt: number;
}

/** The format's version: the first byte, outside the seal and bound into it, so that a later format can tell. */
const FORMAT = 1;
/** HKDF's label: a key derived for launch URLs is good for nothing else. */
const KEY_LABEL = 'payroll-link launch URL v1';
const IV_BYTES = 12;
/** Longest end user id or state, in UTF-8 bytes: one length byte each. */
export const MAX_FIELD_BYTES = 255;
const HAS_ACCOUNT = 1;
const HAS_STATE = 2;
const HAS_REDIRECT = 4;
const TAG_BYTES = 4;

const encoder = new TextEncoder();
/** fatal: a seal that opens must hold UTF-8 we wrote; anything else is not ours. */
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The AES-GCM key of one launch secret. */
export async function launchKey(secret: string): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(), info: encoder.encode(KEY_LABEL) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

const uuidBytes = (uuid: string) => Uint8Array.from(uuid.replaceAll('-', '').match(/../g)!, (pair) => parseInt(pair, 16));

/** A redirect URI's tag in a launch: the first 4 bytes of its SHA-256, in hex. */
export async function redirectTag(uri: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(uri))).subarray(0, TAG_BYTES));
}

/** The fields in binary: a fixed head, then the optional account and the two length-prefixed strings. */
function pack(fields: LaunchFields): Uint8Array<ArrayBuffer> {
  const endUser = encoder.encode(fields.endUserId);
  const state = fields.state === null ? new Uint8Array() : encoder.encode(fields.state);
  if (endUser.length > MAX_FIELD_BYTES || state.length > MAX_FIELD_BYTES) throw new RangeError('a launch field is too long');
  const head = new Uint8Array(4 + 16 + 1);
  new DataView(head.buffer).setUint32(0, fields.expiresAt);
  head.set(uuidBytes(fields.id), 4);
  head[20] =
    (fields.accountId === null ? 0 : HAS_ACCOUNT) |
    (fields.state === null ? 0 : HAS_STATE) |
    (fields.redirectTag === null ? 0 : HAS_REDIRECT);
  const parts = [
    head,
    fields.redirectTag === null ? new Uint8Array() : Uint8Array.from(fields.redirectTag.match(/../g)!, (pair) => parseInt(pair, 16)),
    fields.accountId === null ? new Uint8Array() : uuidBytes(fields.accountId),
    Uint8Array.of(endUser.length),
    endUser,
  ];
  if (fields.state !== null) parts.push(Uint8Array.of(state.length), state);
  const packed = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((offset, part) => (packed.set(part, offset), offset + part.length), 0);
  return packed;
}

/** The fields back, or null when the bytes are not a whole, well-formed packing. */
function unpack(bytes: Uint8Array): LaunchFields | null {
  let at = 21;
  if (bytes.length < at) return null;
  const flags = bytes[20]!;
  const take = (length: number) => (at + length <= bytes.length ? bytes.subarray(at, (at += length)) : null);
  const tag = flags & HAS_REDIRECT ? take(TAG_BYTES) : null;
  const account = flags & HAS_ACCOUNT ? take(16) : null;
  const text = () => {
    const length = take(1);
    const value = length && take(length[0]!);
    return value && decoder.decode(value);
  };
  try {
    const endUserId = text();
    const state = flags & HAS_STATE ? text() : null;
    if (!endUserId || (flags & HAS_STATE && state === null) || at !== bytes.length || (flags & HAS_ACCOUNT && !account)) return null;
    if (flags & HAS_REDIRECT && !tag) return null;
    return {
      id: uuidOfBytes(bytes.subarray(4, 20)),
      endUserId,
      state,
      redirectTag: tag ? hex(tag) : null,
      accountId: account ? uuidOfBytes(account) : null,
      expiresAt: new DataView(bytes.buffer, bytes.byteOffset).getUint32(0),
    };
  } catch {
    return null; // not UTF-8
  }
}

const toBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text.replaceAll('-', '+').replaceAll('_', '/')), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/** What a seal is bound to: its format, what it holds (a launch, a receipt), and the URL it is served under. */
const boundTo = (purpose: string, publicUrl: string) => encoder.encode(`${FORMAT} ${purpose} ${publicUrl}`);

/** Seals `bytes` under `key` for `purpose` at `publicUrl`: a URL-safe segment (base64url, no padding). */
async function seal(bytes: Uint8Array<ArrayBuffer>, key: CryptoKey, purpose: string, publicUrl: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: boundTo(purpose, publicUrl) }, key, bytes),
  );
  return toBase64Url(Uint8Array.of(FORMAT, ...iv, ...sealed));
}

/** The bytes sealed by {@link seal} under any of `keys` for the same purpose and URL, or null. */
async function open(segment: string, keys: readonly CryptoKey[], purpose: string, publicUrl: string): Promise<Uint8Array | null> {
  const bytes = fromBase64Url(segment);
  if (!bytes || bytes.length < 1 + IV_BYTES + 16 || bytes[0] !== FORMAT) return null;
  for (const key of keys) {
    try {
      const iv = bytes.subarray(1, 1 + IV_BYTES);
      return new Uint8Array(
        await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv, additionalData: boundTo(purpose, publicUrl) },
          key,
          bytes.subarray(1 + IV_BYTES),
        ),
      );
    } catch {
      // Not this key's: the next one may be.
    }
  }
  return null;
}

/** Seals a launch's fields for its URL's last segment. */
export const sealLaunch = (fields: LaunchFields, key: CryptoKey, publicUrl: string): Promise<string> =>
  seal(pack(fields), key, 'launch', publicUrl);

/**
 * Opens a segment sealed by {@link sealLaunch} under any of `keys` (the current secret's first, then those being
 * rotated out), or answers null: altered, forged, another deployment's, or not a seal at all. Says nothing of
 * expiry: the caller compares `expiresAt` with its clock.
 */
export async function openLaunch(segment: string, keys: readonly CryptoKey[], publicUrl: string): Promise<LaunchFields | null> {
  const bytes = await open(segment, keys, 'launch', publicUrl);
  return bytes && unpack(bytes);
}

/** What the page's token route hands back with each token: which launch minted which Link token, until when. */
export interface LaunchReceipt {
  launchId: string;
  linkTokenId: string;
  /** Whole seconds since 1970 (UTC): the launch's own expiry. */
  expiresAt: number;
  /**
   * Whole seconds since 1970 (UTC): until when a result of this token is taken, while the token could still be in
   * use (its own `expires`, at most {@link RESULT_GRACE_SECONDS} after the launch's expiry).
   */
  acceptUntil: number;
}

/** How long after a launch's expiry a flow it started may still report: the Link token's life, at most an hour. */
export const RESULT_GRACE_SECONDS = 3_600;

/** A receipt of the first format (before `acceptUntil`): 36 bytes. Such a receipt is taken until the grace's end. */
const FIRST_RECEIPT_BYTES = 36;

/** Seals a receipt: the page sends it back with its result, and the server believes no other link token id. */
export function sealReceipt(receipt: LaunchReceipt, key: CryptoKey, publicUrl: string): Promise<string> {
  const bytes = new Uint8Array(FIRST_RECEIPT_BYTES + 4);
  bytes.set(uuidBytes(receipt.launchId), 0);
  bytes.set(uuidBytes(receipt.linkTokenId), 16);
  const view = new DataView(bytes.buffer);
  view.setUint32(32, receipt.expiresAt);
  view.setUint32(36, receipt.acceptUntil);
  return seal(bytes, key, 'receipt', publicUrl);
}

/** Opens a receipt sealed by {@link sealReceipt} (or by the first format, still open in pages under way), or null. */
export async function openReceipt(segment: string, keys: readonly CryptoKey[], publicUrl: string): Promise<LaunchReceipt | null> {
  const bytes = await open(segment, keys, 'receipt', publicUrl);
  if (!bytes || (bytes.length !== FIRST_RECEIPT_BYTES && bytes.length !== FIRST_RECEIPT_BYTES + 4)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  const expiresAt = view.getUint32(32);
  return {
    launchId: uuidOfBytes(bytes.subarray(0, 16)),
    linkTokenId: uuidOfBytes(bytes.subarray(16, 32)),
    expiresAt,
    acceptUntil: bytes.length === FIRST_RECEIPT_BYTES ? expiresAt + RESULT_GRACE_SECONDS : view.getUint32(36),
  };
}
