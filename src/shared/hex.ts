/** Bytes as lower-case hex, and 16 of them as a UUID's text: one spelling for the server, the sandbox and the view. */

/** `bytes` as lower-case hex, two digits a byte. */
export const hex = (bytes: Uint8Array | readonly number[]): string =>
  Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');

/** 16 bytes as a UUID's text (8-4-4-4-12 hex digits); the version and variant bits are the caller's. */
export function uuidOfBytes(bytes: Uint8Array | readonly number[]): string {
  const digits = hex(bytes);
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-${digits.slice(12, 16)}-${digits.slice(16, 20)}-${digits.slice(20)}`;
}
