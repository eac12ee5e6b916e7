/**
 * The clock and the randomness the kit runs on, taken when it loads: a test's fake timers (Jest's `useFakeTimers()`,
 * Vitest's `vi.useFakeTimers()`, which fake `queueMicrotask` and `setTimeout`) must not stop a scripted session or
 * the bound of `mockLink().opened()`. And a DOM without `crypto.randomUUID` (jsdom 20, Jest 29's) still gets ids.
 */
const realSetTimeout = globalThis.setTimeout.bind(globalThis);
const realClearTimeout = globalThis.clearTimeout.bind(globalThis);

/** Runs `work` after the current task's synchronous code, as `queueMicrotask` would, but through a promise: no fake timer holds it. */
export const soon = (work: () => void): void => void Promise.resolve().then(work);

/** `setTimeout`, the real one. */
export const later = (work: () => void, ms: number) => realSetTimeout(work, ms);
/** `clearTimeout`, the real one. */
export const cancelLater = (timer: ReturnType<typeof realSetTimeout>) => realClearTimeout(timer);

/** A version 4 UUID: `crypto.randomUUID()`, or the same from `crypto.getRandomValues()` where the DOM has only that. */
export function randomUuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
