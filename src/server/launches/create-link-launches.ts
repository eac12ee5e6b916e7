/**
 * `createLinkLaunches`: the Link flow at a URL of the integrator's own, for a
 * native app's WebView or system browser, or a link sent by text or email.
 * `create()` seals a launch into a URL; `handle()` serves, below `publicUrl`,
 * the flow's page (`GET /<segment>`), its token route (`POST /<segment>/token`:
 * a Link token for the launch's end user, with a sealed receipt) and its
 * result route (`POST /<segment>/result`: checked against the service, then
 * `onResult`, once). Web-standard, no Node built-in: it runs on workerd.
 */
import * as z from 'zod';
import { invalidParamsAnswer, jsonResponse, type ErrorAnswer } from '../error-response.js';
import { ConfigError } from '../config-error.js';
import { describeError } from '../describe-error.js';
import { HttpError } from '../handler/http-error.js';
import { answerErrors, parseOptions, postHandler } from '../handler/post-handler.js';
import { requestsAreIsolated } from '../handler/request-isolation.js';
import { withinTime } from '../handler/time-bound.js';
import { redactingLogger } from '../logger.js';
import { createLinkTokenHandler } from '../link-token/link-token-handler.js';
import { isPayrollApiError } from '../client/payroll-api-error.js';
import { memoryEventIdStore } from '../webhooks/event-id-store.js';
import { oncePerEvent } from '../webhooks/once-per-event.js';
import type { EventClaimStore } from '../webhooks/event-claim-store.js';
import { ANSWERS, exitId, MAX_TOKENS_PER_LAUNCH, ResultReportSchema, revokedId, successId } from './launch-answers.js';
import { launchKey, openLaunch, openReceipt, redirectTag, sealLaunch, sealReceipt, type LaunchFields } from './launch-seal.js';
import { flowPage, noticePage, pageLanguage, scriptWords, type LaunchPageNotice } from './launch-page.js';
import {
  LaunchRequestSchema,
  LinkLaunchesOptionsSchema,
  type LaunchRequest,
  type LaunchResult,
  type LinkLaunchesOptions,
} from './launch-options.js';

/** Launches whose token count an instance remembers; the oldest are forgotten first. */
const REMEMBERED_LAUNCHES = 10_000;
/** Bound of one store call. */
const STORE_TIMEOUT_MS = 5_000;

/** The launches `createLinkLaunches` makes. */
export interface LinkLaunches {
  /**
   * A launch for one end user (call it from your own authenticated route): its URL, its public id (named in the
   * redirect and in `onResult`; it opens nothing by itself), and when the URL stops working (ISO 8601).
   * Rejects with a `ConfigError` for bad input (a `redirectUri` not in `redirectUris`, an over-long `state`).
   */
  create(request: LaunchRequest): Promise<{ id: string; url: string; expiresAt: string }>;
  /** Makes a launch's URL stop working (410), on every instance that shares the store. */
  revoke(id: string): Promise<void>;
  /** Serves every path below `publicUrl`; routes on the path alone, never on the host the request names. Never throws. */
  handle(request: Request): Promise<Response>;
}

/**
 * Makes the launches: see {@link LinkLaunches}, and `docs/native-apps.md`. Throws a `ConfigError` naming each
 * wrong option: a secret under 32 characters, a `publicUrl` that is not https (or http on loopback), a redirect
 * a browser or the system would handle itself, a missing `client`, an unknown option.
 *
 * @example
 * const launches = createLinkLaunches({
 *   client: payroll,
 *   orgName: 'Acme Lending',
 *   solution: 'Deposit Switch',
 *   features: ['direct_deposit_switch'],
 *   linkUrl: 'https://link.service.example/link',
 *   publicUrl: 'https://app.example.com/link',
 *   redirectUris: ['com.acme.app:/payroll-done'],
 *   secret: process.env.PAYROLL_LAUNCH_SECRET!,
 *   onResult: async (result) => saveResult(result),
 * });
 */
export function createLinkLaunches(options: LinkLaunchesOptions): LinkLaunches {
  const settings = parseOptions(LinkLaunchesOptionsSchema, options, 'createLinkLaunches options');
  const { client, publicUrl, redirectUris, ttlSeconds, frameAncestors = [], onResult } = settings;
  const secrets = typeof settings.secret === 'string' ? [settings.secret] : settings.secret;
  const log = redactingLogger(settings.log ?? console, secrets);
  const store: EventClaimStore = settings.store ?? memoryEventIdStore();
  const basePath = new URL(publicUrl).pathname.replace(/\/+$/, '');
  const runOnce = oncePerEvent({
    store,
    leaseMs: settings.resultTimeoutMs + 5_000,
    callbackTimeoutMs: settings.resultTimeoutMs,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    log,
    isolatedRequests: requestsAreIsolated(),
  });
  /** Plain values once made, never a promise another request awaits (Cloudflare Workers: see requestsAreIsolated). */
  let keys: CryptoKey[] | undefined;
  const currentKeys = async () => (keys ??= await Promise.all(secrets.map(launchKey)));
  /** Tokens minted per launch in this instance (plain data, oldest forgotten first). */
  const minted = new Map<string, number>();

  /** Mints for the launch in the request, never for what the browser says: the launch is looked up by its request. */
  const launchOfRequest = new WeakMap<Request, LaunchFields>();
  const mint = createLinkTokenHandler({
    client,
    version: client.version,
    orgName: settings.orgName,
    solution: settings.solution,
    features: settings.features,
    linkTokenFields: settings.linkTokenFields,
    log: settings.log,
    resolveEndUserId: (request) => launchOfRequest.get(request)!.endUserId,
    authorizeAccount: (request, accountId) => launchOfRequest.get(request)?.accountId === accountId,
  });

  /**
   * Whether `id` is marked done in the store: asked with `isDone`, or by a claim of 1 ms given back at once. Bounded
   * like the runner's store calls: a store that fails or hangs is the 503 `STORE_UNAVAILABLE`, which the page
   * retries (a result report too: a store's hiccup must not lose a result), logged once by the boundary.
   */
  async function isDone(id: string): Promise<boolean> {
    const ask = async () => {
      if (store.isDone) return await store.isDone(id);
      const token = crypto.randomUUID();
      const claim = await store.claim(id, token, 1);
      if (claim === 'claimed') await store.release(id, token);
      return claim === 'done';
    };
    let asked;
    try {
      asked = await withinTime(ask, STORE_TIMEOUT_MS);
    } catch (error) {
      throw storeUnavailable(`the store failed: ${describeError(error)}`);
    }
    if (!asked.settled) throw storeUnavailable(`the store did not answer within ${STORE_TIMEOUT_MS} ms`);
    return asked.value;
  }

  /** The store failed or hung: the 503 the page retries, with the log line the boundary writes. */
  const storeUnavailable = (why: string) =>
    new HttpError(ANSWERS.storeUnavailable, { level: 'error', message: `link launch: ${why}; answering 503` });

  /** Why the launch cannot mint or show the flow now, or null when it can. */
  async function standing(launch: LaunchFields): Promise<LaunchPageNotice | null> {
    if (Date.now() / 1000 >= launch.expiresAt) return 'expired';
    // Both asked at once: the page and the token route wait on one round trip to the store, not two.
    const [revoked, connected] = await Promise.all([isDone(revokedId(launch.id)), isDone(successId(launch.id))]);
    return revoked ? 'revoked' : connected ? 'connected' : null;
  }

  const NOTICE_ANSWERS: Record<LaunchPageNotice, ErrorAnswer> = {
    expired: ANSWERS.expired,
    revoked: ANSWERS.revoked,
    connected: ANSWERS.connected,
    unknown: ANSWERS.notFound,
  };

  async function page(request: Request, launch: LaunchFields, segment: string): Promise<Response> {
    const language = pageLanguage(request);
    if (request.method !== 'GET' && request.method !== 'HEAD') throw new HttpError(ANSWERS.methodNotAllowed);
    const notice = await standing(launch);
    if (notice) return noticePage(language, notice, frameAncestors);
    const at = `${basePath}/${segment}`;
    return flowPage(
      language,
      { tokenPath: `${at}/token`, resultPath: `${at}/result`, linkUrl: settings.linkUrl, words: scriptWords(language) },
      frameAncestors,
    );
  }

  async function token(request: Request, launch: LaunchFields): Promise<Response> {
    const notice = await standing(launch);
    if (notice) throw new HttpError(NOTICE_ANSWERS[notice]);
    const count = minted.get(launch.id) ?? 0;
    if (count >= MAX_TOKENS_PER_LAUNCH) {
      throw new HttpError(ANSWERS.tooMany, {
        level: 'warn',
        message: 'link launch: token limit reached; the page asks for a new link',
        fields: { launchId: launch.id },
      });
    }
    minted.delete(launch.id);
    minted.set(launch.id, count + 1);
    if (minted.size > REMEMBERED_LAUNCHES) minted.delete(minted.keys().next().value!);
    // The browser's headers (a cookie the hooks may read) on a new body; not the capability URL, which a hook might log.
    const headers = new Headers(request.headers);
    headers.set('content-type', 'application/json');
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    const forwarded = new Request(`${publicUrl}/token`, {
      method: 'POST',
      headers,
      body: JSON.stringify(launch.accountId === null ? {} : { account_id: launch.accountId }),
    });
    launchOfRequest.set(forwarded, launch);
    // The token handler's own answer, error or not: it has its own boundary, and logged what it refused.
    const answer = await mint(forwarded);
    if (answer.status !== 200) return answer;
    const { data } = (await answer.json()) as { data: { id: string } };
    const receipt = await sealReceipt(
      { launchId: launch.id, linkTokenId: data.id, expiresAt: launch.expiresAt },
      (await currentKeys())[0]!,
      publicUrl,
    );
    return jsonResponse(200, { data, receipt });
  }

  /** The redirect URIs by their tag in a launch (plain data once made). */
  let redirectsByTag: Map<string, string> | undefined;
  const redirectOf = async (tag: string) =>
    (redirectsByTag ??= new Map(await Promise.all(redirectUris.map(async (uri) => [await redirectTag(uri), uri] as const)))).get(tag);

  /** Where the flow returns to, with what the app may know of it; null without a redirect (or one no longer listed). */
  async function redirectFor(launch: LaunchFields, status: 'success' | 'exit'): Promise<string | null> {
    if (launch.redirectTag === null) return null;
    const uri = await redirectOf(launch.redirectTag);
    if (uri === undefined) {
      log.warn('link launch: its redirect is no longer among redirectUris; the page stays on its end screen', { launchId: launch.id });
      return null;
    }
    const target = new URL(uri);
    target.searchParams.set('launch_id', launch.id);
    target.searchParams.set('status', status);
    if (launch.state !== null) target.searchParams.set('state', launch.state);
    return target.href;
  }

  /** Checks a success against the service: the account and the job are this launch's. Null when they are. */
  /**
   * Checks a success against the service: the account and the job are this launch's. A field the service does not
   * send is not checked (the spec shows no account fields); one it sends that is wrong refuses the report. `verified`
   * says whether both the account's `end_user_id` and its `link_token_id` were there to match.
   */
  async function checkSuccess(launch: LaunchFields, linkTokenId: string, accountId: string, jobId: string) {
    const [account, job] = await Promise.all([client.accounts.get(accountId), client.jobs.get(jobId)]);
    const wrong = (sent: string | null | undefined, expected: string) => sent != null && sent !== expected;
    if (wrong(account.end_user_id, launch.endUserId)) return { refused: 'the account is another end user’s' };
    if (wrong(account.link_token_id, linkTokenId)) return { refused: 'the account was connected with another Link token' };
    if (wrong(job.account_id, accountId)) return { refused: "the job is another account's" };
    if (wrong(job.link_token_id, linkTokenId)) return { refused: 'the job ran under another Link token' };
    if (launch.accountId !== null && accountId !== launch.accountId) return { refused: 'a reconnect launch connected another account' };
    return { verified: account.end_user_id === launch.endUserId && account.link_token_id === linkTokenId };
  }

  /** The answer to a report whose result is recorded (now, or before): how it ended, and where the page goes. */
  const recorded = async (launch: LaunchFields, status: 'success' | 'exit') =>
    jsonResponse(200, { data: { status, redirect: await redirectFor(launch, status) } });

  const resultHandler = (launch: LaunchFields) =>
    postHandler({
      subject: 'link launch result',
      log,
      postOnly: 'POST the result as JSON.',
      maxBodyBytes: 4_096,
      internalError: ANSWERS.internal,
      handle: async (_request, body) => {
        const report = ResultReportSchema.safeParse(body.value);
        if (!report.success) throw new HttpError(invalidParamsAnswer(report.error));
        const { status, linkTokenId, accountId, jobId, exitReason } = report.data;
        const receipt = await openReceipt(report.data.receipt, await currentKeys(), publicUrl);
        if (!receipt || receipt.launchId !== launch.id || receipt.linkTokenId !== linkTokenId) {
          throw new HttpError(ANSWERS.notOurs, {
            level: 'warn',
            message: 'link launch: a result whose receipt is not this launch’s was refused',
            fields: { launchId: launch.id },
          });
        }
        // A revoked link's flow counts for nothing, even one that was under way.
        if (await isDone(revokedId(launch.id))) throw new HttpError(ANSWERS.revoked);
        const base = { launchId: launch.id, endUserId: launch.endUserId, state: launch.state, linkTokenId };
        let result: LaunchResult;
        let runId: string;
        if (status === 'success') {
          if (accountId === undefined || jobId === undefined) throw new HttpError(ANSWERS.successFields);
          let checked;
          try {
            checked = await checkSuccess(launch, linkTokenId, accountId, jobId);
          } catch (error) {
            if (!isPayrollApiError(error)) throw error;
            if (error.status !== 404) {
              // The service could not say (unavailable, rate-limited, timed out): the page asks again.
              throw new HttpError(ANSWERS.uncheckable, {
                level: 'error',
                message: `link launch: the result could not be checked: ${error.message}; answering 503`,
                fields: { launchId: launch.id },
              });
            }
            checked = { refused: 'the service does not know that account or job' };
          }
          if ('refused' in checked) {
            throw new HttpError(ANSWERS.notOurs, {
              level: 'warn',
              message: `link launch: a success was refused: ${checked.refused}`,
              fields: { launchId: launch.id, accountId },
            });
          }
          result = { ...base, status, accountId, jobId, verified: checked.verified };
          runId = successId(launch.id);
        } else {
          // An exit names no account: one the browser names is not checked, so it is not passed on. After the launch's
          // success, an exit (of another token's session) changes nothing.
          if (await isDone(successId(launch.id))) return recorded(launch, 'success');
          result = { ...base, status, verified: false, ...(exitReason && { exitReason }) };
          runId = exitId(linkTokenId);
        }
        // Where the page goes is known before onResult runs: nothing after it can fail the report.
        const answer = await recorded(launch, status);
        const outcome = await runOnce(runId, () => onResult(result));
        if (outcome === 'handled' || outcome === 'duplicate') return answer;
        // The runner has logged why.
        if (outcome === 'busy' || outcome === 'timed-out') throw new HttpError(ANSWERS.resultBusy);
        if (outcome === 'store-unavailable') throw new HttpError(ANSWERS.storeUnavailable);
        throw new HttpError(ANSWERS.internal);
      },
    });

  async function route(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${basePath}/`)) throw new HttpError(ANSWERS.notFound);
    const [segment = '', action, ...more] = pathname.slice(basePath.length + 1).split('/');
    const launch = more.length === 0 && segment.length <= 1_024 ? await openLaunch(segment, await currentKeys(), publicUrl) : null;
    if (!launch) {
      if (action === undefined && request.method === 'GET') return noticePage(pageLanguage(request), 'unknown', frameAncestors);
      throw new HttpError(ANSWERS.notFound);
    }
    if (action === undefined) return page(request, launch, segment);
    if (action === 'token') {
      if (request.method !== 'POST') throw new HttpError({ ...ANSWERS.methodNotAllowed, message: 'Use POST.', headers: { allow: 'POST' } });
      return token(request, launch);
    }
    if (action === 'result') return resultHandler(launch)(request);
    throw new HttpError(ANSWERS.notFound);
  }

  const handle = answerErrors({ subject: 'link launch', log, internalError: ANSWERS.internal }, route);

  return {
    async create(input) {
      const parsed = LaunchRequestSchema.safeParse(input);
      if (!parsed.success) throw ConfigError.fromZod('launches.create', parsed.error);
      const { endUserId, redirectUri, state, accountId } = parsed.data;
      if (redirectUri !== undefined && !redirectUris.includes(redirectUri))
        throw new ConfigError(`launches.create: redirectUri ${redirectUri} is not one of redirectUris`);
      const id = crypto.randomUUID();
      const expiresAt = Math.floor(Date.now() / 1000) + ttlSeconds;
      const fields = {
        id,
        endUserId,
        state: state ?? null,
        redirectTag: redirectUri === undefined ? null : await redirectTag(redirectUri),
        accountId: accountId ?? null,
        expiresAt,
      };
      const segment = await sealLaunch(fields, (await currentKeys())[0]!, publicUrl);
      return { id, url: `${publicUrl}/${segment}`, expiresAt: new Date(expiresAt * 1000).toISOString() };
    },
    async revoke(id) {
      if (!z.uuid().safeParse(id).success) throw new ConfigError('launches.revoke: id must be a launch id (a UUID)');
      // The default memory store forgets its oldest ids and is one instance's: a revocation must hold everywhere.
      if (!settings.store) throw new ConfigError('launches.revoke needs a store shared by your instances (createLinkLaunches({ store }))');
      const claim = await store.claim(revokedId(id), crypto.randomUUID(), STORE_TIMEOUT_MS);
      if (claim !== 'done') await store.markDone(revokedId(id), '');
    },
    handle,
  };
}
