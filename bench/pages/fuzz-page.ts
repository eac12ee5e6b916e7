/**
 * Message-fuzz host page. Opens one session (through `openLink()` or
 * `<payroll-link>`) against `fuzz-link.html` on the Link origin, beside two
 * helper frames: one more window of the Link origin and one of a foreign
 * origin. Then every frame sends its share of messages at the session, the
 * page checks that no callback or event fired, and the Link frame finishes a
 * normal session.
 */
import { openLink, PayrollLink, type DroppedMessage, type LinkToken } from '../../src/index.js';
import type { FuzzPlan } from './fuzz-messages.js';
import type { FuzzCommand } from './fuzz-link.js';
import { deepElements, nextEvent, within } from './wait-for.js';

/** The three senders' plans. */
export interface FuzzPlans {
  session: FuzzPlan;
  sameOrigin: FuzzPlan;
  foreign: FuzzPlan;
}

/** What one fuzzed session gave. */
export interface FuzzOutcome {
  target: 'openLink' | 'element';
  sent: { sessionPort: number; sessionWindow: number; sameOrigin: number; foreign: number; total: number };
  /** Callbacks and DOM events while the fuzz ran: must be empty. */
  duringFuzz: string[];
  /** Callbacks and DOM events after `finish`, in order. */
  afterFuzz: string[];
  exitReason: string | null;
  /** openLink only: messages refused, by reason (`onDroppedMessage`), and the handle's count. */
  droppedByReason: Record<string, number>;
  droppedCount: number | null;
  fuzzMs: number;
  /** Long tasks (> 50 ms) on this page's main thread while the fuzz ran: what a user would feel as jank. */
  longTasks: { count: number; totalMs: number; longestMs: number };
  /** Uncaught errors and unhandled rejections seen by the page. */
  errors: string[];
  framesLeft: number;
}

declare global {
  interface Window {
    fuzz: { ready: Promise<void>; run(target: 'openLink' | 'element', plans: FuzzPlans, seed: number): Promise<FuzzOutcome> };
  }
}

const params = new URLSearchParams(location.search);
const linkOrigin = params.get('link') ?? '';
const foreignOrigin = params.get('foreign') ?? '';
const STEP_MS = 60_000;

const errors: string[] = [];
window.addEventListener('error', (event) => errors.push(String(event.message)));
window.addEventListener('unhandledrejection', (event) => errors.push(String(event.reason)));

/** Window messages that reached this page, by sending window: the bench waits until all have arrived. */
const seen = new Map<MessageEventSource, number>();
window.addEventListener('message', (event) => {
  if (event.source) seen.set(event.source, (seen.get(event.source) ?? 0) + 1);
});

const longTasks: PerformanceEntry[] = [];
new PerformanceObserver((list) => longTasks.push(...list.getEntries())).observe({ type: 'longtask' });

const helper = (origin: string) => {
  const frame = document.createElement('iframe');
  frame.title = `fuzz helper ${origin}`;
  frame.src = `${origin}/fuzz-helper.html`;
  document.body.append(frame);
  return frame;
};
const sameOriginHelper = helper(linkOrigin);
const foreignHelper = helper(foreignOrigin);
const loaded = (frame: HTMLIFrameElement) => nextEvent(frame, 'load', STEP_MS);

/** Sends a command to a frame and resolves with its reply (over a port of its own, not the window). */
function command(target: Window, origin: string, message: FuzzCommand): Promise<{ window: number; port: number }> {
  const channel = new MessageChannel();
  const reply = new Promise<{ window: number; port: number }>((resolve) => {
    channel.port1.onmessage = (event) => {
      channel.port1.close();
      resolve(event.data);
    };
  });
  target.postMessage(message, origin, [channel.port2]);
  return within(reply, STEP_MS, `reply to ${message.bench}`);
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + STEP_MS;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${STEP_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const mintToken = (): LinkToken => {
  const id = crypto.randomUUID();
  return { id, token: `tok.${id}`, expires: new Date(Date.now() + 3_600_000).toISOString(), mode: 'sandbox' };
};

async function run(target: 'openLink' | 'element', plans: FuzzPlans, seed: number): Promise<FuzzOutcome> {
  let phase: 'open' | 'fuzz' | 'after' = 'open';
  const duringFuzz: string[] = [];
  const afterFuzz: string[] = [];
  const record = (name: string) => (phase === 'fuzz' ? duringFuzz : phase === 'after' ? afterFuzz : []).push(name);
  const droppedByReason: Record<string, number> = {};
  let dropped = 0;
  const onDroppedMessage = ({ reason }: DroppedMessage) => {
    dropped++;
    droppedByReason[reason] = (droppedByReason[reason] ?? 0) + 1;
  };
  const linkUrl = `${linkOrigin}/fuzz-link.html`;
  const callbacks = {
    onLogin: () => record('onLogin'),
    onSuccess: () => record('onSuccess'),
    onError: () => record('onError'),
    onEvent: ({ name }: { name: string }) => record(`onEvent:${name}`),
    onExit: () => record('onExit'),
  };

  let closed: Promise<string>;
  let element: PayrollLink | null = null;
  if (target === 'openLink') {
    const link = openLink({ linkUrl, fetchToken: async () => mintToken(), onDroppedMessage, ...callbacks, onOpen: () => record('onOpen') });
    closed = link.closed.then((detail) => detail.reason);
    await within(link.ready, STEP_MS, 'openLink ready');
  } else {
    element = new PayrollLink();
    element.linkUrl = linkUrl;
    element.fetchToken = async () => mintToken();
    Object.assign(element, callbacks);
    for (const name of ['link-open', 'link-login', 'link-success', 'link-error', 'link-event', 'link-exit']) {
      element.addEventListener(name, () => record(name));
    }
    document.body.append(element);
    await element.updateComplete;
    const opened = nextEvent(element, 'link-open', STEP_MS);
    closed = nextEvent<CustomEvent<{ reason: string }>>(element, 'link-exit', STEP_MS * 2).then((event) => event.detail.reason);
    element.shadowRoot!.querySelector('button')!.click();
    await opened;
  }

  const sessionFrame = deepElements().find((e): e is HTMLIFrameElement => e instanceof HTMLIFrameElement && e.src.startsWith(linkUrl))!;
  const sessionWindow = sessionFrame.contentWindow!;
  const before = new Map([sessionWindow, sameOriginHelper.contentWindow!, foreignHelper.contentWindow!].map((w) => [w, seen.get(w) ?? 0]));
  phase = 'fuzz';
  const started = performance.now();
  const tasksBefore = longTasks.length;
  const [fromSession, fromSame, fromForeign] = await Promise.all([
    command(sessionWindow, linkOrigin, { bench: 'fuzz', seed, plan: plans.session }),
    command(sameOriginHelper.contentWindow!, linkOrigin, { bench: 'fuzz', seed: seed + 1, plan: plans.sameOrigin }),
    command(foreignHelper.contentWindow!, foreignOrigin, { bench: 'fuzz', seed: seed + 2, plan: plans.foreign }),
  ]);
  const total = fromSession.window + fromSession.port + fromSame.window + fromForeign.window;
  // Every window message has arrived once each sender's count is reached; port messages keep their order, so
  // the session's port fuzz is all handled before `finish`'s messages, which come over the same port.
  await until(
    () =>
      [
        [sessionWindow, fromSession.window],
        [sameOriginHelper.contentWindow!, fromSame.window],
        [foreignHelper.contentWindow!, fromForeign.window],
      ].every(([w, n]) => (seen.get(w as Window) ?? 0) - before.get(w as Window)! >= (n as number)),
    'window messages delivered',
  );
  if (target === 'openLink') await until(() => dropped >= total, 'every message dropped');
  const fuzzMs = performance.now() - started;
  // Long tasks are reported a little after they end: give the observer a turn before counting.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const tasks = longTasks.slice(tasksBefore).map((t) => t.duration);
  phase = 'after';
  await command(sessionWindow, linkOrigin, { bench: 'finish' });
  const exitReason = await within(closed, STEP_MS, 'session end');
  element?.remove();
  return {
    target,
    sent: {
      sessionPort: fromSession.port,
      sessionWindow: fromSession.window,
      sameOrigin: fromSame.window,
      foreign: fromForeign.window,
      total,
    },
    duringFuzz,
    afterFuzz,
    exitReason,
    droppedByReason,
    droppedCount: target === 'openLink' ? dropped : null,
    fuzzMs,
    longTasks: { count: tasks.length, totalMs: tasks.reduce((a, b) => a + b, 0), longestMs: Math.max(0, ...tasks) },
    errors: [...errors],
    framesLeft: deepElements().filter((e) => e.localName === 'iframe').length - 2,
  };
}

window.fuzz = { ready: Promise.all([loaded(sameOriginHelper), loaded(foreignHelper)]).then(() => {}), run };
