/** Bytes as lower-case hex, and 16 of them as a UUID's text: one spelling for the server, the sandbox and the view. */
/** `bytes` as lower-case hex, two digits a byte. */
export declare const hex: (bytes: Uint8Array | readonly number[]) => string;
/** 16 bytes as a UUID's text (8-4-4-4-12 hex digits); the version and variant bits are the caller's. */
export declare function uuidOfBytes(bytes: Uint8Array | readonly number[]): string;
