/**
 * A fake of the hosted Link page, for the widget's browser tests. It stands in
 * for the service's Link flow (outside the widget, the system under test) and
 * speaks the real frame protocol from src/protocol.ts. It is served from a
 * second origin, so the widget's origin checks are exercised for real.
 *
 * A second implementation of the Link page's side on purpose, beside the
 * sandbox's (sandbox/link-page/): it plays on cue what a real flow cannot
 * (malformed messages, races, a page that never answers). Both are built on
 * the same contract module, src/protocol.ts, so they agree on every message's
 * shape; only what they do with the messages is written twice.
 *
 * The query string picks a scenario. The token is expected as `tok.<linkTokenId>`
 * (what the fake token endpoint mints), so events carry the matching id.
 */
import {
  CloseRequestMessageSchema,
  EventMessageSchema,
  InitMessageSchema,
  OpenUrlResultMessageSchema,
  PROTOCOL_VERSION,
  type CloseAnswerMessage,
  type EventMessage,
  type InitMessage,
  type OpenUrlMessage,
} from '../../../src/protocol.js';
import type { InitFields } from '../../../src/core/frame-channel.js';

const params = new URLSearchParams(location.search);
const scenario = params.get('scenario') ?? 'success';
/**
 * `heights`: a JSON array of height reports (`payroll-link:height`) sent over the port right after `open`, good
 * and bad alike (the widget must drop the bad ones): `[480, -1, "700", "=NaN"]`.
 */
const heights: unknown[] = (JSON.parse(params.get('heights') ?? '[]') as unknown[]).map((height) =>
  // JSON has no NaN or infinities: "=NaN", "=Infinity", "=-Infinity" stand for them.
  typeof height === 'string' && height.startsWith('=') ? Number(height.slice(1)) : height,
);
/**
 * `focus`: follow the protocol's focus rule as a real Link page must (see `takeFocus` in src/protocol.ts): on the
 * init, move focus to the page's control when `takeFocus` is not false. Opt-in: the other tests' fake takes none.
 */
const takesFocus = params.has('focus');
// With `focus`, the host window hears when focus comes into this frame (Tab from the page): a test waits for it.
if (takesFocus) window.addEventListener('focus', () => parent.postMessage({ type: 'fake-link:focused' }, '*'));
/** `report-init`: tell the host window each time a token arrives, and answer its pings (see below). */
const reportInit = params.has('report-init');
const accountId = '3f0c2a3e-5d6b-4c8d-9e0f-1a2b3c4d5e6f';
const platformId = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const jobId = '9c8b7a6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
/**
 * `close`: how the fake answers a close request: `exit` (default: it ends as user_closed), `confirm` (it says it
 * asks its user, tells the host window `fake-link:confirming`, then follows the host's `fake-link:leave` or
 * `fake-link:stay`), `deaf` (no answer at all, as a Link page of an older contract).
 */
const closeAnswer = params.get('close') ?? 'exit';
/**
 * `open`: a URL the fake asks the host to open (`{token}` in it becomes the token; `{long}`, 2,000 characters: more would break the fake's own `open` event), at once, or with `on-click`
 * when the page inside the frame is clicked (a gesture inside the frame). Each outcome is told to the host window.
 */
const openUrl = params.get('open');

/** Sends a Link event after checking it against the contract, like the real page does. */
function send(port: MessagePort, message: EventMessage) {
  port.postMessage(EventMessageSchema.parse(message));
}
const event = <N extends EventMessage['name']>(name: N, payload: Extract<EventMessage, { name: N }>['payload']) =>
  ({ type: 'payroll-link:event', name, payload }) as EventMessage;

/**
 * What the fake reports in its `open` event, so that tests check what arrived by message, not in the URL: the token,
 * where the page is and came from, and the init's other fields, whole: a new one needs no edit here.
 */
export type FakeOpenReport = {
  linkTokenId: string;
  token: string;
  href: string;
  referrer: string;
  init: InitFields;
};

function run(port: MessagePort, { type, version, token, ...init }: InitMessage) {
  const linkTokenId = token.startsWith('tok.') ? token.slice(4).split('.')[0] : '00000000-0000-4000-8000-000000000000';
  const login = event('login', { accountId, platformId, linkTokenId });
  const success = event('success', {
    accountId,
    platformId,
    jobId,
    job: 'direct_deposit_switch',
    params: { allocation: 'amount', value: 10000 },
    linkTokenId,
  });
  const exit = (reason: 'completed' | 'user_closed' | 'error', error: Extract<EventMessage, { name: 'error' }>['payload'] | null = null) =>
    event('exit', { reason, error, accountId });
  // A field sent as `undefined` is left out: the widget drops a payload holding one (LinkEventEnvelopeSchema).
  const told = Object.fromEntries(Object.entries(init).filter(([, value]) => value !== undefined)) as InitFields;
  send(port, event('open', { linkTokenId, token, href: location.href, referrer: document.referrer, init: told } satisfies FakeOpenReport));
  if (takesFocus) {
    if (init.takeFocus !== false) document.querySelector('button')!.focus();
    // Told on the window (the widget drops it as off-contract): a test waits for this step, not for time.
    parent.postMessage({ type: 'fake-link:focus-rule-applied', takeFocus: init.takeFocus ?? null, focused: document.hasFocus() }, '*');
  }
  // Unchecked on purpose: the widget's own check is under test.
  const report = () => heights.forEach((height) => port.postMessage({ type: 'payroll-link:height', version: PROTOCOL_VERSION, height }));
  report();
  // `heights-on-click`: again on each click inside the page (its user acts in the frame, as on a new screen), then a
  // `screen_transition` event over the same ordered port: once the host hears it, the reports have arrived.
  if (params.has('heights-on-click'))
    document.addEventListener('click', () => (report(), send(port, event('screen_transition', { screenName: 'clicked' }))));
  port.onmessage = ({ data }) => {
    const result = OpenUrlResultMessageSchema.safeParse(data);
    if (result.success)
      return parent.postMessage({ type: 'fake-link:open-url-result', outcome: result.data.outcome, url: result.data.url }, '*');
    if (!CloseRequestMessageSchema.safeParse(data).success) return;
    // Told over the port as well, ahead of the answer: the port keeps order, while this window message may lose the
    // race to an `exit` on the port, and Chromium drops a message from a frame that the exit has removed by then.
    send(port, event('screen_transition', { screenName: 'close-requested' }));
    parent.postMessage({ type: 'fake-link:close-requested' }, '*');
    if (closeAnswer === 'exit') send(port, event('exit', { reason: 'user_closed', error: null }));
    if (closeAnswer !== 'confirm') return;
    port.postMessage({ type: 'payroll-link:close-answer', answer: 'confirming' } satisfies CloseAnswerMessage);
    parent.postMessage({ type: 'fake-link:confirming' }, '*');
  };
  // The host window plays the Link page's user, in any scenario: `fake-link:exit` with a `reason` is a Done or Close
  // on its final screen (or a Leave); `fake-link:ask` is its own close control, pressed: the page asks its user
  // whether to leave (`confirming`) with no close request from the host, and `fake-link:stay` answers it.
  window.addEventListener('message', ({ source, data }) => {
    if (source !== parent) return;
    if (data?.type === 'fake-link:exit') send(port, exit(data.reason as 'completed' | 'user_closed'));
    if (data?.type === 'fake-link:ask')
      port.postMessage({ type: 'payroll-link:close-answer', answer: 'confirming' } satisfies CloseAnswerMessage);
    if (data?.type === 'fake-link:stay' && closeAnswer !== 'confirm')
      port.postMessage({ type: 'payroll-link:close-answer', answer: 'stay' } satisfies CloseAnswerMessage);
  });
  if (closeAnswer === 'confirm') {
    window.addEventListener('message', ({ source, data }) => {
      if (source !== parent) return;
      if (data?.type === 'fake-link:leave') send(port, event('exit', { reason: 'user_closed', error: null }));
      if (data?.type === 'fake-link:stay')
        port.postMessage({ type: 'payroll-link:close-answer', answer: 'stay' } satisfies CloseAnswerMessage);
    });
  }
  if (openUrl !== null) {
    const ask = () =>
      port.postMessage({
        type: 'payroll-link:open-url',
        url: openUrl.replace('{token}', token).replace('{long}', 'a'.repeat(2_000)),
      } satisfies OpenUrlMessage);
    if (params.has('on-click')) document.addEventListener('click', ask);
    else ask();
  }

  switch (scenario) {
    case 'success':
      [login, success, exit('completed')].forEach((m) => send(port, m));
      break;
    case 'duplicates':
      [login, login, success, success, exit('completed'), exit('completed'), login].forEach((m) => send(port, m));
      break;
    case 'retry-then-success':
      send(
        port,
        event('error', { type: 'invalidCredentials', code: 'INVALID_CREDENTIALS', message: 'Wrong password', pendingRetry: true }),
      );
      [login, success, exit('completed')].forEach((m) => send(port, m));
      break;
    case 'job-error': {
      const error = { type: 'platformError', code: 'JOB_FAILED', message: 'The job failed', pendingRetry: false } as const;
      [login, event('error', error), exit('error', error)].forEach((m) => send(port, m));
      break;
    }
    case 'garbage-then-success':
      // Over the real port: first what the contract refuses (no event envelope), which the widget must drop...
      for (const bad of [
        null,
        'login',
        { type: 'payroll-link:event', name: 'open', payload: { huge: 'x'.repeat(100_000) } },
        { type: 'payroll-link:event', name: 'Teleport!', payload: {} },
        { type: 'payroll-link:event', name: 'open', payload: { at: new Date() } },
        { type: 'payroll-link:event', name: 'open', payload: { a: { b: { c: { d: 1 } } } } },
        { type: 'payroll-link:event', name: 'open', payload: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
      ]) {
        port.postMessage(bad);
      }
      // ...then events outside the contract (an unknown name, payloads that do not fit their name's schema), which
      // it must pass on untyped and never act on.
      for (const untyped of [
        { type: 'payroll-link:event', name: 'login', payload: { accountId: 'not-a-uuid', platformId, linkTokenId } },
        { type: 'payroll-link:event', name: 'teleport', payload: { to: 'mars', legs: [1, 2] } },
        { type: 'payroll-link:event', name: 'exit', payload: { reason: 'whatever', error: null } },
        { type: 'payroll-link:event', name: 'success', payload: { accountId } },
        { type: 'payroll-link:event', name: 'select_employer', payload: { id: accountId, name: 'Old field names' } },
      ]) {
        port.postMessage(untyped);
      }
      [login, success, exit('completed')].forEach((m) => send(port, m));
      break;
    case 'reject-first':
    case 'reject-all': {
      // Like the service refusing a token (expired by its clock, or spent): only the first token
      // minted by the fake endpoint (ending .1) for reject-first, every token for reject-all.
      if (scenario === 'reject-first' && !token.endsWith('.1')) {
        [login, success, exit('completed')].forEach((m) => send(port, m));
        break;
      }
      const error = {
        type: 'invalidLinkToken',
        code: 'INVALID_LINK_TOKEN',
        message: 'This link is no longer valid',
        pendingRetry: false,
      } as const;
      [event('error', error), exit('error', error)].forEach((m) => send(port, m));
      break;
    }
    case 'progress': {
      // Every progress event of the contract, typed, at its moment in a deposit switch (as the sandbox's Link page sends them).
      const employer = { selectedEmployerId: '5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e', selectedEmployerName: 'Acme Corp' };
      [
        event('screen_transition', { screenName: 'search' }),
        event('select_employer', employer),
        event('screen_transition', { screenName: 'login', ...employer }),
        event('login_attempt', { platformId }),
        login,
        event('screen_transition', { screenName: 'allocation', ...employer }),
        event('input_allocation', { action: 'partial_switch', allocation: { type: 'amount', value: 25050 } }),
        event('select_platform', { selectedPlatformId: platformId, selectedPlatformName: 'Paylocity' }),
        success,
        exit('completed'),
      ].forEach((m) => send(port, m));
      break;
    }
    case 'login-then-wait':
      send(port, login);
      break;
    case 'success-then-wait':
      [login, success].forEach((m) => send(port, m));
      break;
    case 'reload':
      location.reload();
      break;
    case 'idle':
      break;
  }
}

if (scenario === 'forger') {
  // Another window of the right origin that is not the session's frame: it tries to drive the session.
  parent.postMessage({ type: 'payroll-link:ready', version: PROTOCOL_VERSION }, '*');
  parent.postMessage({ type: 'payroll-link:event', name: 'exit', payload: { reason: 'completed', error: null } }, '*');
} else if (scenario !== 'silent') {
  window.addEventListener('message', (message) => {
    if (message.source !== parent) return;
    // The host's messages come in order: a pong tells a test that every message sent before its ping was handled.
    if (reportInit && message.data?.type === 'fake-link:ping') return parent.postMessage({ type: 'fake-link:pong' }, '*');
    const init = InitMessageSchema.safeParse(message.data);
    if (!init.success || !message.ports[0]) return;
    // Told on the window, not the port: a test sees a token sent to a frame whose session would ignore its
    // events (a frame built ahead, before the click). The widget drops this message as off-contract.
    if (reportInit) parent.postMessage({ type: 'fake-link:init-received' }, '*');
    run(message.ports[0], init.data);
  });
  parent.postMessage({ type: 'payroll-link:ready', version: PROTOCOL_VERSION }, '*');
}
