/**
 * The wire contract between the page, the integrator's backend and the hosted Link frame, as zod schemas; every type
 * is inferred from them (docs/architecture.md). The widget, the sandbox's Link page and the example backend import it.
 * `zod/mini` keeps the browser bundle small: it tree-shakes to the checks actually used.
 */
import * as z from 'zod/mini';
import {
  COLOR_SCHEMES,
  DISPLAYS,
  ELEMENT_OPTIONS,
  type ElementOptionRow,
  type LinkPageOptionName,
  type OptionValues,
} from './protocol/element-options.js';
import { MAX_TEXT, nonEmptyText, text, uuid } from './protocol/strings.js';

/** Most keys accepted in a free-form payload object. */
const MAX_KEYS = 50;

/** A value a free-form payload may hold as it is: null, a boolean, a finite number, or a string of at most {@link MAX_TEXT} characters. */
const isPrimitive = (value: unknown) =>
  value === null || typeof value === 'boolean' || Number.isFinite(value) || (typeof value === 'string' && value.length <= MAX_TEXT);

/**
 * Whether `value` is a small flat object: a plain object (as `z.record` takes: its prototype `Object.prototype`
 * or none) of at most {@link MAX_KEYS} keys of at most 64 characters, each value a primitive ({@link isPrimitive}).
 * The key count is checked before any entry: an object with 100,000 keys is refused at once instead of after
 * validating every entry (about 200 ms of the host's main thread).
 */
function isFlatRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const keys = Object.keys(value);
  return keys.length <= MAX_KEYS && keys.every((key) => key.length <= 64 && isPrimitive((value as Record<string, unknown>)[key]));
}

/**
 * A small free-form object of primitives: the payload of Link events with no fixed shape. One check, not
 * `z.pipe` into `z.record` of a union: the same rule, and the session's code carries no record, pipe or null
 * schema of zod's (about 0.9 KB gzip).
 */
const flatRecord = () =>
  z.custom<Record<string, string | number | boolean | null>>(isFlatRecord, 'not a flat object of at most 50 primitives');

// Link token: what `POST /link_tokens` returns, passed on to the browser (protocol/link-token.ts: the server's client
// checks it, and bundles none of the rest).

export {
  LinkModeSchema,
  LinkTokenEnvelopeSchema,
  LinkTokenSchema,
  type LinkMode,
  type LinkToken,
  type LinkTokenEnvelope,
} from './protocol/link-token.js';

// Callback payloads: the `detail` of each DOM event and the argument of each callback.

/** The schema of {@link LinkErrorType}. */
export const LinkErrorTypeSchema = z.enum([
  /** The token endpoint or the Link page could not be reached, or answered badly. */
  'networkError',
  /** The Link token is unknown, used, expired or malformed. */
  'invalidLinkToken',
  /** The user typed wrong credentials; non-terminal, the user may try again. */
  'invalidCredentials',
  /** The payroll platform refused or failed the job. */
  'platformError',
  /** The integrator's configuration or the page is wrong (bad option, missing URL). */
  'clientError',
  /** Something unexpected inside the Link flow. */
  'systemError',
]);

/** The schema of {@link LinkError}. */
export const LinkErrorSchema = z.object({
  type: LinkErrorTypeSchema,
  /** A stable identifier to branch on: the widget's own (`TOKEN_NETWORK`, ...: `LinkErrorCode`) or the Link page's (`INVALID_CREDENTIALS`, ...); all in docs/errors.md. */
  code: nonEmptyText(),
  /** Human-readable; for logs, not for branching. */
  message: text(),
  /** True when the flow goes on (e.g. wrong password: the user can try again). */
  pendingRetry: z.boolean(),
});

/** The schema of {@link LoginDetail}. */
export const LoginDetailSchema = z.object({
  accountId: uuid(),
  platformId: uuid(),
  linkTokenId: uuid(),
});

/** The schema of {@link SuccessDetail}. */
export const SuccessDetailSchema = z.object({
  accountId: uuid(),
  platformId: uuid(),
  /** The Job UUID. */
  jobId: uuid(),
  /** The job name, such as `direct_deposit_switch`. */
  job: nonEmptyText(),
  /** The job's parameters, such as the chosen allocation. */
  params: flatRecord(),
  linkTokenId: uuid(),
});

/** The schema of {@link ExitReason}. */
export const ExitReasonSchema = z.enum(['completed', 'user_closed', 'error', 'closed_by_host']);

/**
 * The schema of {@link ExitDetail}. Pure (so are OpenDetailSchema, OpenUrlResultMessageSchema and
 * CloseRequestMessageSchema): the session's code reads none of them, and leaves them out.
 */
export const ExitDetailSchema = /* @__PURE__ */ z.object({
  reason: ExitReasonSchema,
  error: /* @__PURE__ */ z.nullable(LinkErrorSchema),
  /** The Link token id, or null when the session ended before a token was known. */
  linkTokenId: /* @__PURE__ */ z.nullable(/* @__PURE__ */ uuid()),
  /** The account, when the user logged in before the end. */
  accountId: /* @__PURE__ */ z.optional(/* @__PURE__ */ uuid()),
});

/** The schema of {@link OpenDetail}. */
export const OpenDetailSchema = /* @__PURE__ */ z.object({
  linkTokenId: /* @__PURE__ */ z.nullable(/* @__PURE__ */ uuid()),
});

/** The schema of {@link LinkEventName}. Pure: the session's code reads none of it, and leaves it out. */
export const LinkEventNameSchema = /* @__PURE__ */ z.enum([
  'open',
  'select_employer',
  'select_platform',
  'login_attempt',
  'login',
  'input_allocation',
  'success',
  'exit',
  'error',
  'screen_transition',
]);

// Frame messages.
// 1. frame → page (window.postMessage): `ready`, once the Link page can take a token.
// 2. page → frame (window.postMessage to the exact Link origin): `init` with the token and a transferred MessagePort.
//    The token never travels in a URL.
// 3. frame → page (over that port only): `event` messages, one per Link event; `open-url` (a login in a new window),
//    `close-answer`, and `height` (the content's height, on every screen, for an inline frame).
// 4. page → frame (over that port only): `open-url-result` and `close-request`.
// While focus is inside the frame, the page's dialog never sees the keyboard: the Link page handles Escape itself, as
// it answers a `close-request` (docs/windows-and-closing.md). Inline, Escape is the page's: the Link page ignores it.

/** The schema of {@link ColorScheme}. */
export const ColorSchemeSchema = z.enum(COLOR_SCHEMES);

/** The schema of {@link Display}. */
export const DisplaySchema = z.enum(DISPLAYS);

/** The init message's fields of the element's options the Link page is told (`linkPage` in their rows), by name. */
function linkPageFields() {
  const fields: Record<string, z.ZodMiniOptional> = {};
  for (const [name, row] of Object.entries<ElementOptionRow>(ELEMENT_OPTIONS))
    if (row.linkPage) fields[name] = z.optional(row.values ? z.enum(row.values as [string, ...string[]]) : text());
  return fields as { [K in LinkPageOptionName]: z.ZodMiniOptional<z.ZodMiniType<Exclude<OptionValues[K], undefined>>> };
}

/**
 * The colour mode a session draws in: the one asked for (`color-scheme`, `colorScheme`), or `light` when none
 * was. A value outside the contract (`"blue"`, a typo) falls back to `light` with a console warning rather than
 * ending the session: a colour is no reason to cost a user their connection, and an attribute's invalid value
 * falls back to its default in HTML too.
 */
export function parseColorScheme(asked: unknown): ColorScheme {
  const parsed = ColorSchemeSchema.safeParse(asked ?? 'light');
  if (parsed.success) return parsed.data;
  console.warn(`payroll-link: color-scheme ${JSON.stringify(asked)} is not light, dark or auto: light is used.`);
  return 'light';
}

/** Version of the frame protocol; both sides refuse messages of another version. */
export const PROTOCOL_VERSION = 1;

/** The schema of {@link ReadyMessage}. */
export const ReadyMessageSchema = z.object({
  type: z.literal('payroll-link:ready'),
  version: z.literal(PROTOCOL_VERSION),
});

/** The schema of {@link InitMessage}. */
export const InitMessageSchema = z.object({
  type: z.literal('payroll-link:init'),
  version: z.literal(PROTOCOL_VERSION),
  token: nonEmptyText(),
  /**
   * The page draws its own close control over the frame's top-right corner (44 × 44 px, 4 px from the edges):
   * the Link page shows none of its own and leaves that corner free.
   */
  hostCloseControl: z.optional(z.boolean()),
  /** The page's language (a BCP 47 tag such as `es` or `es-MX`), for the Link page to speak it where it can. */
  language: z.optional(z.string().check(z.minLength(2), z.maxLength(35))),
  /**
   * How the page shows the frame. `inline`: in the page's flow, sized by the Link page's height reports
   * ({@link HeightMessageSchema}), so the Link page drops its full-viewport minimum height. Absent: the modal.
   */
  display: z.optional(DisplaySchema),
  /**
   * Whether the user opened the flow, and so gave it focus. A requirement on any Link page: it moves focus into
   * itself (its first screen's heading) only when this is true (absent: true, as before this field), and later
   * only when the frame already has focus (`document.hasFocus()`): a flow that started by itself (an inline
   * element seen on scroll, `prefetch="load"`, `show()` from a script) must never take focus from the page's
   * user, who may be typing elsewhere. The widget sends true for the modal (it takes focus as it opens).
   */
  takeFocus: z.optional(z.boolean()),
  /**
   * The element's options the Link page is told (`linkPage` in their rows of `ELEMENT_OPTIONS`, each described
   * there), under their names: `colorScheme`, the colour mode the Link page draws in (absent: light).
   */
  ...linkPageFields(),
});

/** Tallest content a Link page may report, in CSS pixels: more is broken or hostile, and is dropped. */
export const MAX_REPORTED_HEIGHT = 20_000;

/** The schema of {@link HeightMessage}: `z.number()` refuses NaN and infinities, the refinement the rest. */
export const HeightMessageSchema = z.object({
  type: z.literal('payroll-link:height'),
  version: z.literal(PROTOCOL_VERSION),
  // A refinement, not z.positive()/z.lte(): those checks would add their code to the session's for this one field.
  height: z.number().check(z.refine((height) => height > 0 && height <= MAX_REPORTED_HEIGHT, 'a height in (0, 20000]')),
});

/** The schema of {@link FrameExitPayload}. */
export const FrameExitPayloadSchema = z.object({
  reason: z.enum(['completed', 'user_closed', 'error']),
  error: z.nullable(LinkErrorSchema),
  accountId: z.optional(uuid()),
});

// Progress events: what the user does in the flow. Pinwheel's event names, and its payloads' field names where they
// mean the same (its Link SDKs' v3 event registry), so that a Pinwheel integration finds them. Loose objects: a
// field the contract does not name yet (a newer Link page's) is passed on, not stripped.

/** The schema of {@link OpenPayload}. */
export const OpenPayloadSchema = z.looseObject({
  /** The Link token's id, as in `link-open`. */
  linkTokenId: uuid(),
});

/** The schema of {@link SelectEmployerPayload}. */
export const SelectEmployerPayloadSchema = z.looseObject({
  selectedEmployerId: uuid(),
  selectedEmployerName: nonEmptyText(),
});

/** The schema of {@link SelectPlatformPayload}. */
export const SelectPlatformPayloadSchema = z.looseObject({
  selectedPlatformId: uuid(),
  selectedPlatformName: nonEmptyText(),
});

/** The schema of {@link LoginAttemptPayload}. */
export const LoginAttemptPayloadSchema = z.looseObject({
  platformId: uuid(),
});

/** The schema of {@link InputAllocationPayload}. */
export const InputAllocationPayloadSchema = z.looseObject({
  action: z.enum(['full_switch', 'partial_switch']),
  allocation: z.optional(
    z.object({
      type: z.enum(['remainder', 'amount', 'percentage']),
      value: z.optional(z.number()),
    }),
  ),
});

/** The schema of {@link ScreenTransitionPayload}. */
export const ScreenTransitionPayloadSchema = z.looseObject({
  screenName: nonEmptyText(),
  selectedEmployerId: z.optional(uuid()),
  selectedEmployerName: z.optional(text()),
  selectedPlatformId: z.optional(uuid()),
  selectedPlatformName: z.optional(text()),
});

/** Most values (keys and array items, at any depth) in a Link event's payload: more means hostile or broken. */
const MAX_PAYLOAD_VALUES = 100;
/** Deepest nesting of objects and arrays in a Link event's payload. */
const MAX_PAYLOAD_DEPTH = 3;

/**
 * Whether `payload` is a small JSON-like object: plain objects, arrays, strings of at most {@link MAX_TEXT}
 * characters, finite numbers, booleans and null, {@link MAX_PAYLOAD_VALUES} values and {@link MAX_PAYLOAD_DEPTH}
 * levels at most. It counts a budget down, and each object's size is checked before its entries: a payload of
 * 100,000 keys is refused at once.
 */
function isSmallPayload(payload: unknown): boolean {
  let budget = MAX_PAYLOAD_VALUES;
  const fits = (value: unknown, depth: number): boolean => {
    if (isPrimitive(value)) return true;
    if (typeof value !== 'object' || value === null || depth === MAX_PAYLOAD_DEPTH) return false;
    const array = Array.isArray(value);
    // What a message's structured clone makes of a Date, a Map or a Blob keeps its prototype: not JSON, refused.
    if (!array && Object.getPrototypeOf(value) !== Object.prototype) return false;
    const keys = Object.keys(value);
    if ((budget -= keys.length) < 0) return false;
    return keys.every((key) => key.length <= 64 && fits((value as Record<string, unknown>)[key], depth + 1));
  };
  return typeof payload === 'object' && payload !== null && !Array.isArray(payload) && fits(payload, 0);
}

/** The schema of {@link LinkEventEnvelope}. */
export const LinkEventEnvelopeSchema = z.object({
  type: z.literal('payroll-link:event'),
  name: z.string().check(z.regex(/^[a-z][a-z0-9_]{0,63}$/)),
  payload: z.custom<Record<string, unknown>>(isSmallPayload, 'not a small payload object'),
});

const eventMessage = <N extends z.infer<typeof LinkEventNameSchema>, P extends z.core.$ZodType>(name: N, payload: P) =>
  z.object({ type: z.literal('payroll-link:event'), name: z.literal(name), payload });

/**
 * The schema of {@link EventMessage}. A plain union, not `discriminatedUnion`: the same checks and inferred type
 * for ~0.5 KB less gzip.
 */
export const EventMessageSchema = z.union([
  eventMessage('login', LoginDetailSchema),
  eventMessage('success', SuccessDetailSchema),
  eventMessage('error', LinkErrorSchema),
  eventMessage('exit', FrameExitPayloadSchema),
  eventMessage('open', OpenPayloadSchema),
  eventMessage('select_employer', SelectEmployerPayloadSchema),
  eventMessage('select_platform', SelectPlatformPayloadSchema),
  eventMessage('login_attempt', LoginAttemptPayloadSchema),
  eventMessage('input_allocation', InputAllocationPayloadSchema),
  eventMessage('screen_transition', ScreenTransitionPayloadSchema),
]);

/** Longer than the page accepts (2,000), so that a URL too long is refused with a typed error the Link page hears. */
const windowUrlText = () => z.string().check(z.minLength(1), z.maxLength(8_192));

/** The schema of {@link OpenUrlMessage}. */
export const OpenUrlMessageSchema = z.object({
  type: z.literal('payroll-link:open-url'),
  url: windowUrlText(),
});

/** The schema of {@link OpenUrlResultMessage}. */
export const OpenUrlResultMessageSchema = /* @__PURE__ */ z.object({
  type: /* @__PURE__ */ z.literal('payroll-link:open-url-result'),
  url: /* @__PURE__ */ windowUrlText(),
  outcome: /* @__PURE__ */ z.enum(['opened', 'blocked', 'refused']),
});

/** The schema of {@link CloseRequestMessage}. */
export const CloseRequestMessageSchema = /* @__PURE__ */ z.object({ type: /* @__PURE__ */ z.literal('payroll-link:close-request') });

/** The schema of {@link CloseAnswerMessage}. */
export const CloseAnswerMessageSchema = z.object({
  type: z.literal('payroll-link:close-answer'),
  answer: z.enum(['confirming', 'stay']),
});

/**
 * Every message besides Link events that the frame may send over the port: a height report, an `open-url`, a
 * `close-answer` (Link events are read through {@link LinkEventEnvelopeSchema} first, so that one outside the
 * contract is passed on untyped).
 */
export const PortMessageSchema = z.union([HeightMessageSchema, OpenUrlMessageSchema, CloseAnswerMessageSchema]);

// Inferred types. The frame messages' (ReadyMessage, InitMessage, FrameExitPayload, EventMessage) stay internal:
// `payroll-link` and `payroll-link/core` export the others (src/core/index.ts).

/**
 * How the flow shows: `modal` (the default), or `inline` in the page's flow. The one list behind the element's
 * `display`, the options' (`openLink`, `prepareLink`) and the init message's, which tells the Link page.
 */
export type Display = z.infer<typeof DisplaySchema>;
/** Classification of a {@link LinkError}; integrators branch on it. */
export type LinkErrorType = z.infer<typeof LinkErrorTypeSchema>;
/** An error, as data, never a bare string. */
export type LinkError = z.infer<typeof LinkErrorSchema>;
/** `link-login` / `onLogin`: the user authenticated with their payroll platform. */
export type LoginDetail = z.infer<typeof LoginDetailSchema>;
/** `link-success` / `onSuccess`: the job finished. */
export type SuccessDetail = z.infer<typeof SuccessDetailSchema>;
/** Why a session ended. */
export type ExitReason = z.infer<typeof ExitReasonSchema>;
/** `link-exit` / `onExit` / `closed`: how the session ended. */
export type ExitDetail = z.infer<typeof ExitDetailSchema>;
/** `link-open` / `onOpen`: the Link frame is showing and has received its token. */
export type OpenDetail = z.infer<typeof OpenDetailSchema>;
/** Every event name the Link flow emits. */
export type LinkEventName = z.infer<typeof LinkEventNameSchema>;
/** frame → page: the Link page has loaded and waits for its token (internal to the frame protocol). */
export type ReadyMessage = z.infer<typeof ReadyMessageSchema>;
/** page → frame: the token and options, with a MessagePort (`event.ports[0]`) for everything after (internal). */
export type InitMessage = z.infer<typeof InitMessageSchema>;
/**
 * frame → page (over the port): the height of the Link page's content, in CSS pixels, on every screen. The page
 * sizes an inline frame to it, within the integrator's `min-height`/`max-height` limits; the modal ignores it
 * (internal to the frame protocol).
 */
export type HeightMessage = z.infer<typeof HeightMessageSchema>;
/**
 * The colour mode of the modal and the Link page: `light` (the default), `dark`, or `auto`, which follows the
 * user's `prefers-color-scheme` (and its changes while the flow shows). The element's `color-scheme`, `colorScheme`
 * in `openLink` and `prepareLink`, and `colorScheme` in the init message.
 */
export type ColorScheme = z.infer<typeof ColorSchemeSchema>;
/** The payload the frame sends with its own `exit` event; the page adds the Link token id (internal). */
export type FrameExitPayload = z.infer<typeof FrameExitPayloadSchema>;
/**
 * frame → page (over the port): one Link event of the contract, its payload typed by its name: the events that
 * drive callbacks, and the progress events (internal to the frame protocol).
 */
export type EventMessage = z.infer<typeof EventMessageSchema>;
/**
 * frame → page (over the port): open `url` in a new window, for a login that refuses to be framed (an OAuth page
 * that sends `X-Frame-Options`). The page checks it ({@link OpenUrlResultMessage} says what came of it): https only
 * (plain http on loopback, the sandbox), no credentials in it, never the Link token in it.
 */
export type OpenUrlMessage = z.infer<typeof OpenUrlMessageSchema>;
/**
 * page → frame (over the port): what came of an `open-url`. `opened`: a window was opened (or the integrator's
 * `onOpenUrl` took it); `blocked`: the browser's popup blocker refused, so the Link page offers a button whose
 * click opens the window itself; `refused`: the URL broke the contract and was not opened.
 */
export type OpenUrlResultMessage = z.infer<typeof OpenUrlResultMessageSchema>;
/**
 * page → frame (over the port): the page asks the flow to close (Escape, the close control, `requestClose()`). The
 * flow ends (`exit`), or answers {@link CloseAnswerMessage} `confirming` while it asks its user. A flow that
 * answers neither in time is ended by the page.
 */
export type CloseRequestMessage = z.infer<typeof CloseRequestMessageSchema>;
/**
 * frame → page (over the port): `confirming`, every time the flow starts asking its user whether to leave, whether
 * the page asked it to close or its user pressed Escape or a close control inside it (the page waits, with no bound
 * on a person; one nobody asked for is harmless); `stay`: the user stays (the Stay button, or Escape inside the
 * question). Leaving sends nothing: the `exit` event follows. From `confirming` to `stay` or the session's end the
 * modal's own close control is inert, so Tab stays in the flow's question (an alert dialog).
 */
export type CloseAnswerMessage = z.infer<typeof CloseAnswerMessageSchema>;
/**
 * frame → page (over the port): what every Link event must be, whatever its name, to count at all: the type, a name
 * (lower-case words joined by `_`, as the contract's), and a small JSON-like payload object. A message that fails
 * this is dropped; one that passes it but not {@link EventMessage} (a name the contract does not know, a payload
 * that does not fit its name's schema) is passed on untyped (`typed: false`), never dropped (internal to the frame
 * protocol).
 */
export type LinkEventEnvelope = z.infer<typeof LinkEventEnvelopeSchema>;
/** `open`'s payload, the Link token's id: the Link page has its token, shows its first screen (Pinwheel's: empty). */
export type OpenPayload = z.infer<typeof OpenPayloadSchema>;
/** `select_employer`'s payload (Pinwheel's fields): the employer the user picked in the search. */
export type SelectEmployerPayload = z.infer<typeof SelectEmployerPayloadSchema>;
/** `select_platform`'s payload (Pinwheel's fields): the payroll platform (not an employer) the user picked. */
export type SelectPlatformPayload = z.infer<typeof SelectPlatformPayloadSchema>;
/** `login_attempt`'s payload (Pinwheel's field): the platform the user sent credentials (or a one-time code) to. */
export type LoginAttemptPayload = z.infer<typeof LoginAttemptPayloadSchema>;
/**
 * `input_allocation`'s payload (Pinwheel's shape): the deposit switch's allocation, chosen by the user or preset by
 * the Link token: `action` `full_switch` (the whole paycheck, no `allocation`) or `partial_switch` with the
 * `allocation`: `remainder` (what is left after other deposits), `amount` (`value` in cents) or `percentage`
 * (`value` 1 to 100).
 */
export type InputAllocationPayload = z.infer<typeof InputAllocationPayloadSchema>;
/**
 * `screen_transition`'s payload (Pinwheel's fields): the Link page shows another screen (`screenName`: `search`,
 * `login`, `mfa`, `allocation`, `running`, `success`, `error`), with the employer or platform picked so far.
 */
export type ScreenTransitionPayload = z.infer<typeof ScreenTransitionPayloadSchema>;

/**
 * A Link event of the contract whose payload fits its name's schema (`typed: true`): checking `typed`, then
 * `name`, narrows `payload` to that event's type.
 */
export type TypedLinkEvent = {
  [M in EventMessage as M['name']]: { name: M['name']; payload: M['payload']; typed: true };
}[EventMessage['name']];

/**
 * A Link event outside the contract, passed on as it came (`typed: false`): a name the contract does not know
 * (a newer Link page's), or a known name whose payload does not fit its schema. Never acted on: a `login` that
 * does not fit calls no `onLogin`.
 */
export type UntypedLinkEvent = { name: string; payload: Record<string, unknown>; typed: false };

/**
 * `link-event` / `onEvent`: every event the Link flow emits, with its payload: typed ({@link TypedLinkEvent})
 * or, outside the contract, untyped ({@link UntypedLinkEvent}).
 *
 * @example
 * ```ts
 * link.onEvent = (event) => {
 *   if (event.typed && event.name === 'select_employer') track(event.payload.selectedEmployerName);
 * };
 * ```
 */
export type LinkEventDetail = TypedLinkEvent | UntypedLinkEvent;

/**
 * The schema of {@link LinkEventDetail}, `link-event`'s detail: one typed member per event of the contract (its name,
 * its payload's schema, `typed: true`) and the untyped one. Pure: only the launch bridge checks it, when an app reads
 * a forwarded `link-event`.
 */
export const LinkEventDetailSchema = /* @__PURE__ */ (() =>
  z.union([
    ...EventMessageSchema._zod.def.options.map((message) =>
      z.object({ name: message.shape.name, payload: message.shape.payload, typed: z.literal(true) }),
    ),
    z.object({ name: LinkEventEnvelopeSchema.shape.name, payload: LinkEventEnvelopeSchema.shape.payload, typed: z.literal(false) }),
  ]) as unknown as z.ZodMiniType<LinkEventDetail>)();

/** The schema of {@link ReadyDetail}. Pure, like {@link LinkEventDetailSchema}. */
export const ReadyDetailSchema = /* @__PURE__ */ z.object({ linkUrl: /* @__PURE__ */ z.string() });
/** `link-ready` / `onReady`: the Link page loaded hidden (its URL, resolved), ready to open at once. */
export type ReadyDetail = z.infer<typeof ReadyDetailSchema>;
