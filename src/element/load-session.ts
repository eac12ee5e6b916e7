import { exitDetail } from '../core/exit-detail.js';
import { linkError } from '../core/link-error.js';
import type { LinkHandle, OpenLinkOptions, PreparedLink, PrepareLinkOptions } from '../core/link-options.js';
import type { ExitDetail, LinkError } from '../protocol.js';
import { guarded } from '../shared/guarded.js';

/** What the element loads on intent: see session-code.ts. */
export type SessionCode = typeof import('./session-code.js');

/** How long a session waits for its code, as it waits for the Link page (`readyTimeoutMs`) when none is given. */
const LOAD_TIMEOUT_MS = 20_000;

let loading: Promise<SessionCode> | undefined;
let loaded: SessionCode | undefined;
/**
 * Loads that failed so far. A browser may keep a module import that failed (Chromium 150 answers the same URL with
 * the same error, fetching nothing): the single-file build asks again under a new URL (`&retry=<failures>`, written
 * in by scripts/build-package.ts); a bundler's chunk URL is its own, and there only a reload fetches it again.
 */
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- read by the single-file build's URL (see above)
let failures = 0;

/** Loads the session's code once per page; a failed load (the network) is tried again at the next call (a click). */
export function loadSessionCode(): Promise<SessionCode> {
  loading ??= import('./session-code.js').then(
    (code) => (loaded = code),
    (error: unknown) => {
      loading = undefined;
      failures++;
      throw error;
    },
  );
  return loading;
}

/** Where a session's code comes from: this page's load of it; a test gives one it controls. */
export interface SessionCodeSource {
  /** The code, when it is here already: the flow is then built at once, as `prepareLink()` builds it. */
  loaded(): SessionCode | undefined;
  load(): Promise<SessionCode>;
}

const pageSource: SessionCodeSource = { loaded: () => loaded, load: loadSessionCode };

/**
 * Starts loading the session's code on a sign of intent (hover, focus, press), with or without `prefetch`: it
 * mints no token, and by the click it is here. A failure is left to the session that needs the code, which
 * loads again and reports it.
 */
export function preloadSessionCode(): void {
  // Called on every pointermove: once the code is here, nothing to do (not even a promise).
  if (!loaded) loadSessionCode().catch(() => {});
}

/**
 * `prepareLink()` with the same contract, for a caller whose session code may not be loaded yet: once it is
 * here (the usual case: it loads on the first sign of intent), this is `prepareLink()` itself. Before that,
 * the flow is built when the code arrives, and `open()` hands back a session at once that starts then.
 */
export function lazyPrepareLink(options: PrepareLinkOptions, source: SessionCodeSource = pageSource): PreparedLink {
  const code = source.loaded();
  if (code) return code.prepareLink(options);
  let prepared: PreparedLink | null = null;
  let disposed = false;
  let handle: LinkHandle | null = null;
  // Built hidden as soon as the code is here, unless disposed or opened first (open() then builds its own).
  // A failed load is not reported here: open() loads again and reports.
  source.load().then(
    (arrived) => {
      if (!disposed && !handle) prepared = arrived.prepareLink(options);
    },
    () => {},
  );
  return {
    open(openOptions) {
      if (handle) return handle;
      const merged: OpenLinkOptions = { ...options, ...openOptions };
      // Disposed before it was opened: ended before it began, as prepareLink() says, with nothing to load.
      if (disposed) return (handle = endedSession(merged));
      // The code is here: the flow built ahead (or built now) opens at once, so that a close() that follows in
      // the same task finds a real session to end, and nothing built is left behind.
      prepared ??= source.loaded()?.prepareLink(options) ?? null;
      if (prepared) return (handle = prepared.open(openOptions));
      handle = lazySession(merged, source, (arrived) => (prepared ??= arrived.prepareLink(options)).open(openOptions));
      return handle;
    },
    dispose() {
      if (handle || disposed) return;
      disposed = true;
      prepared?.dispose();
    },
  };
}

/** `openLink()` with the same contract, for a caller whose session code may not be loaded yet: see {@link lazyPrepareLink}. */
export function lazyOpenLink(options: OpenLinkOptions): LinkHandle {
  return lazyPrepareLink({ ...options, fetchTokenAhead: false }).open();
}

/**
 * A session whose code is still loading: its handle at once, the real session once the code is here (`start`).
 * Ended before that, by `close()`, by a load that failed or outlasted `readyTimeoutMs`, it ends the way a
 * session does: `onError` for a failure (`SESSION_CODE_UNAVAILABLE`), then `onExit`, exactly once and last;
 * the token fetched ahead is cancelled; `ready` and `closed` settle and never reject.
 */
function lazySession(options: OpenLinkOptions, source: SessionCodeSource, start: (code: SessionCode) => LinkHandle): LinkHandle {
  let session: LinkHandle | null = null;
  const pending = pendingSession(
    options,
    () => session,
    () => clearTimeout(deadline),
  );
  const unavailable = (why: string) =>
    pending.end(linkError('networkError', 'SESSION_CODE_UNAVAILABLE', `The Link session's code did not load (${why}).`));
  // The real session's own wait for the Link page starts once it runs: this bounds the wait before it.
  const deadline = setTimeout(() => unavailable('it took too long'), options.readyTimeoutMs ?? LOAD_TIMEOUT_MS);
  source.load().then(
    (code) => {
      if (pending.ended()) return;
      try {
        session = start(code);
      } catch (error) {
        // Not expected (the session reports its own failures), but never a spinner left waiting for it.
        return unavailable(`it did not start: ${error}`);
      }
      clearTimeout(deadline);
      pending.follow(session);
    },
    (error: unknown) => unavailable(String(error)),
  );
  return pending.handle;
}

/** A session disposed before it was opened: it ends at once (`closed_by_host`), once its caller holds the handle. */
function endedSession(options: OpenLinkOptions): LinkHandle {
  const pending = pendingSession(
    options,
    () => null,
    () => {},
  );
  queueMicrotask(() => pending.end(null));
  return pending.handle;
}

/**
 * A session that has not started: its handle, which hands over to the real one (`session()`) once there, and its
 * one way to end before that: `error` null is a close by the page.
 */
function pendingSession(options: OpenLinkOptions, session: () => LinkHandle | null, onEnd: () => void) {
  let ended = false;
  let resolveReady!: () => void;
  let resolveClosed!: (detail: ExitDetail) => void;
  const end = (error: LinkError | null): void => {
    if (ended) return;
    ended = true;
    onEnd();
    options.cancelToken?.();
    if (error) guarded(options.onError, error);
    const detail = exitDetail(error ? 'error' : 'closed_by_host', error, null, options.accountId);
    resolveReady();
    resolveClosed(detail);
    guarded(options.onExit, detail);
  };
  // Before the code is here, no flow exists to ask: a request is a close.
  const stop = (how: 'close' | 'requestClose') => {
    const running = session();
    if (running) running[how]();
    else end(null);
  };
  const handle: LinkHandle = {
    close: () => stop('close'),
    requestClose: () => stop('requestClose'),
    ready: new Promise<void>((resolve) => (resolveReady = resolve)),
    closed: new Promise<ExitDetail>((resolve) => (resolveClosed = resolve)),
    get droppedMessages() {
      return session()?.droppedMessages ?? 0;
    },
  };
  return {
    handle,
    end,
    ended: () => ended,
    /** The real session is here: its promises settle the handle's. */
    follow(real: LinkHandle): void {
      void real.ready.then(resolveReady);
      void real.closed.then(resolveClosed);
    },
  };
}
