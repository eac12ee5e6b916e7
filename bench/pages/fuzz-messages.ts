/**
 * Generators of hostile and broken frame messages for the fuzz bench, seeded
 * so a run can be replayed. Every "invalid" generator checks its output
 * against the real schema of `src/protocol.ts` and draws again if a mutation
 * happened to produce a valid message: the counts are exact.
 */
import { LinkEventEnvelopeSchema, PROTOCOL_VERSION, ReadyMessageSchema, type EventMessage } from '../../src/protocol.js';

/** A seeded pseudo-random source (mulberry32): small, fast, good enough to pick cases. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!;
const int = (rng: Rng, max: number) => Math.floor(rng() * max);
const uuid = (rng: Rng) => 'xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx'.replace(/x/g, () => int(rng, 16).toString(16));

/** Words the generators mix in so random data often comes close to the protocol. */
const VOCABULARY = [
  'payroll-link:ready',
  'payroll-link:event',
  'payroll-link:init',
  'type',
  'name',
  'payload',
  'version',
  'login',
  'success',
  'exit',
  'error',
  'open',
  'completed',
  'user_closed',
  'accountId',
  'platformId',
  'jobId',
  'linkTokenId',
  'token',
  'reason',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  '',
  ' ',
  '\u0000',
  '😀',
  '<script>alert(1)</script>',
] as const;

/** Any JSON-like value: nested objects and arrays, odd keys, protocol words, extreme numbers. */
export function randomJson(rng: Rng, depth = 0): unknown {
  const roll = rng();
  if (depth > 4 || roll < 0.35) {
    return pick(rng, [
      () => null,
      () => rng() < 0.5,
      () => pick(rng, [0, -0, 1, -1, PROTOCOL_VERSION, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity]),
      () => pick(rng, VOCABULARY),
      () => uuid(rng),
      () => rng().toString(36).repeat(int(rng, 5)),
      () => undefined,
    ])();
  }
  if (roll < 0.55) return Array.from({ length: int(rng, 6) }, () => randomJson(rng, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = int(rng, 6); i > 0; i--) object[pick(rng, VOCABULARY)] = randomJson(rng, depth + 1);
  if (rng() < 0.3) object.type = pick(rng, ['payroll-link:ready', 'payroll-link:event']);
  return object;
}

const error = (rng: Rng) => ({
  type: pick(rng, ['networkError', 'invalidLinkToken', 'invalidCredentials', 'platformError', 'clientError', 'systemError'] as const),
  code: 'FUZZ_CODE',
  message: 'fuzz',
  pendingRetry: rng() < 0.5,
});

/** A valid Link event message of any kind: it must only ever count when it comes over the session's port. */
export function validEvent(rng: Rng): EventMessage {
  const ids = { accountId: uuid(rng), platformId: uuid(rng), linkTokenId: uuid(rng) };
  const event = (name: string, payload: unknown) => ({ type: 'payroll-link:event', name, payload }) as EventMessage;
  return pick(rng, [
    () => event('login', ids),
    () => event('success', { ...ids, jobId: uuid(rng), job: 'direct_deposit_switch', params: { amount: 100 } }),
    () => event('error', error(rng)),
    () => event('exit', { reason: pick(rng, ['completed', 'user_closed', 'error']), error: null, accountId: ids.accountId }),
    () =>
      event(pick(rng, ['open', 'select_employer', 'select_platform', 'login_attempt', 'input_allocation', 'screen_transition']), {
        step: 'fuzz',
      }),
  ])();
}

/** A valid ready message. */
export const validReady = () => ({ type: 'payroll-link:ready', version: PROTOCOL_VERSION });

/** Breaks exactly one thing in a message: a value of the wrong type, a wrong literal, a missing or bad field. */
function breakOneField(rng: Rng, message: Record<string, unknown>): Record<string, unknown> {
  const copy = structuredClone(message);
  const payload = copy.payload as Record<string, unknown> | undefined;
  const target: Record<string, unknown> = payload && typeof payload === 'object' && rng() < 0.7 ? payload : copy;
  const keys = Object.keys(target);
  const key = keys.length > 0 ? pick(rng, keys) : 'type';
  pick(rng, [
    () => delete target[key],
    () => (target[key] = pick(rng, [null, 42, true, [], {}, '', 'not-a-uuid', 'payroll-link:evnt', 'x'.repeat(2001)])),
    () => (target[key] = `${String(target[key])}!`),
    () => (copy.version = PROTOCOL_VERSION + 1),
    () => (copy.type = 'payroll-link:' + pick(rng, ['Event', 'events', 'ready ', 'init'])),
    () => (copy.payload = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]))),
  ])();
  return copy;
}

/** Draws until `make` gives a message `valid` refuses (a mutation may, rarely, leave a message valid). */
function invalid(make: () => unknown, valid: (value: unknown) => boolean): unknown {
  for (;;) {
    const message = make();
    if (!valid(message)) return message;
  }
}

// What the session drops over its port: a message without the envelope every Link event has. (One with it is
// passed on, untyped when its name or payload is outside the contract.)
const isEvent = (value: unknown) => LinkEventEnvelopeSchema.safeParse(value).success;
const isReady = (value: unknown) => ReadyMessageSchema.safeParse(value).success;

/** A Link event message with one field wrong: fails the event envelope. */
export const nearValidEvent = (rng: Rng) => invalid(() => breakOneField(rng, validEvent(rng) as Record<string, unknown>), isEvent);
/** A ready message with one field wrong: fails the ready schema. */
export const nearValidReady = (rng: Rng) => invalid(() => breakOneField(rng, validReady()), isReady);
/** Random JSON that fails the event envelope (for the port). */
export const randomNonEvent = (rng: Rng) => invalid(() => randomJson(rng), isEvent);
/** Random JSON that fails the ready schema (for the window). */
export const randomNonReady = (rng: Rng) => invalid(() => randomJson(rng), isReady);

/** An oversized message: a protocol-shaped message with a 64 KB–1 MB string, 100k keys or a 100k-item array. */
export function oversized(rng: Rng): unknown {
  const size = 2 ** (16 + int(rng, 5));
  const base = validEvent(rng) as Record<string, unknown>;
  return pick(rng, [
    () => ({ ...base, payload: { ...(base.payload as object), accountId: 'a'.repeat(size) } }),
    () => ({ ...base, name: 'x'.repeat(size) }),
    () => ({
      type: 'payroll-link:event',
      name: 'open',
      payload: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
    }),
    () => ({ type: 'payroll-link:ready', version: PROTOCOL_VERSION, padding: Array.from({ length: 100_000 }, (_, i) => i) }),
  ])();
}

/** How many messages of each kind one frame sends. */
export interface FuzzPlan {
  /** Over the session's MessagePort (session frame only). */
  portNearValid?: number;
  portRandom?: number;
  portOversized?: number;
  /** Over `window.parent.postMessage`. */
  windowNearValidReady?: number;
  windowRandom?: number;
  windowValidReady?: number;
  windowValidEvents?: number;
  windowOversized?: number;
}

/** Sends a plan's window messages to `parent` (with `*`) and its port messages to `port`; returns the counts sent. */
export function sendPlan(plan: FuzzPlan, seed: number, port: MessagePort | null): { window: number; port: number } {
  const rng = seededRandom(seed);
  const sent = { window: 0, port: 0 };
  const toWindow = (n = 0, make: () => unknown) => {
    for (let i = 0; i < n; i++, sent.window++) parent.postMessage(make(), '*');
  };
  const toPort = (n = 0, make: () => unknown) => {
    for (let i = 0; i < n && port; i++, sent.port++) port.postMessage(make());
  };
  toWindow(plan.windowNearValidReady, () => nearValidReady(rng));
  toWindow(plan.windowRandom, () => randomNonReady(rng));
  toWindow(plan.windowValidReady, validReady);
  toWindow(plan.windowValidEvents, () => validEvent(rng));
  toWindow(plan.windowOversized, () => invalid(() => oversized(rng), isReady));
  toPort(plan.portNearValid, () => nearValidEvent(rng));
  toPort(plan.portRandom, () => randomNonEvent(rng));
  toPort(plan.portOversized, () => invalid(() => oversized(rng), isEvent));
  return sent;
}
