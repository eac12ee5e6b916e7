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
import type { ErrorAnswer } from '../error-response.js';
import { ConfigError } from '../config-error.js';
import { HttpError } from '../handler/http-error.js';
import { answerErrors, parseOptions } from '../handler/post-handler.js';
import { requestsAreIsolated } from '../handler/request-isolation.js';
import { redactingLogger } from '../logger.js';
import { createLinkTokenMinter } from '../link-token/link-token-minter.js';
import { oncePerEvent } from '../webhooks/once-per-event.js';
import { ANSWERS } from './launch-answers.js';
import { isDone, KEYS, launchStorage, STORE_TIMEOUT_MS, warnOfStorage } from './launch-records.js';
import { launchResults, type LaunchCheck } from './launch-results.js';
import { resultRoute } from './launch-result-route.js';
import { tokenRoute } from './launch-token-route.js';
import { launchKey, openLaunch, RESULT_GRACE_SECONDS, redirectTag, sealLaunch, type LaunchFields } from './launch-seal.js';
import { flowPage, noticePage, pageLanguage, scriptWords, type LaunchPageNotice } from './launch-page.js';
import {
  LaunchRequestSchema,
  LinkLaunchesOptionsSchema,
  MAX_TTL_IN_ONE_PROCESS,
  type LaunchRequest,
  type LinkLaunchesOptions,
} from './launch-options.js';

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
  /**
   * Confirms what the service's `account.added` webhook says of a Link token one of these launches minted: call it
   * from your webhook receiver's `onEvent` with every event (others answer `not-a-launch`). The event ties the
   * account and the job to the token and names the end user; kept until the page reports (or the token's time
   * ends), it turns an `unconfirmed` success into `success` once the job's own outcome is known too. Throws what
   * is worth a redelivery (the store or the service unavailable), so that the receiver answers 5xx.
   */
  confirm(event: unknown): Promise<LaunchCheck>;
  /**
   * Reads the job of a launch's `unconfirmed` success again (from a scheduled job, or when your user comes back):
   * `onResult` runs one `success` once the service confirms every fact. Throws what is worth another try.
   */
  recheck(launchId: string): Promise<LaunchCheck>;
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
  // A done mark lasts as long as any launch made now can be used, its grace included.
  const storage = launchStorage(settings.store, (ttlSeconds + RESULT_GRACE_SECONDS) * 1000);
  if (!storage.sharedClaims && ttlSeconds > MAX_TTL_IN_ONE_PROCESS) {
    throw new ConfigError(
      `createLinkLaunches options: ttlSeconds: is at most ${MAX_TTL_IN_ONE_PROCESS} without a shared store (a completed launch would open again after a restart); give store: redisEventStore(redis), postgresEventStore(pool) or d1EventStore(env.DB)`,
    );
  }
  warnOfStorage(storage, ttlSeconds, log);
  const basePath = new URL(publicUrl).pathname.replace(/\/+$/, '');
  const runOnce = oncePerEvent({
    store: storage.claims,
    leaseMs: settings.resultTimeoutMs + 5_000,
    callbackTimeoutMs: settings.resultTimeoutMs,
    storeTimeoutMs: STORE_TIMEOUT_MS,
    log,
    isolatedRequests: requestsAreIsolated(),
  });
  /** Plain values once made, never a promise another request awaits (Cloudflare Workers: see requestsAreIsolated). */
  let keys: CryptoKey[] | undefined;
  const currentKeys = async () => (keys ??= await Promise.all(secrets.map(launchKey)));
  const results = launchResults({ client, storage, runOnce, onResult, flowJobs: settings.features, log });

  const minter = createLinkTokenMinter(
    {
      client,
      version: client.version,
      orgName: settings.orgName,
      solution: settings.solution,
      features: settings.features,
      linkTokenFields: settings.linkTokenFields,
      log,
    },
    'createLinkLaunches options',
  );
  /** Mints for the launch, never for what the browser says. */
  const mint = (request: Request, launch: LaunchFields) => {
    // The hook gets the browser's headers (a cookie it may read), not the capability URL, which a hook might log.
    const headers = new Headers(request.headers);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    const forHook = new Request(`${publicUrl}/token`, { method: 'POST', headers });
    return minter.mint(forHook, { endUserId: launch.endUserId, accountId: launch.accountId ?? undefined });
  };

  /** Why the launch cannot mint or show the flow now, or null when it can. */
  async function standing(launch: LaunchFields): Promise<LaunchPageNotice | null> {
    if (Date.now() / 1000 >= launch.expiresAt) return 'expired';
    // Both asked at once: the page and the token route wait on one round trip to the store, not two.
    const [revoked, connected] = await Promise.all([
      isDone(storage.claims, KEYS.revoked(launch.id)),
      isDone(storage.claims, KEYS.success(launch.id)),
    ]);
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

  const token = tokenRoute({
    storage,
    mint,
    requireOpen: async (launch) => {
      const notice = await standing(launch);
      if (notice) throw new HttpError(NOTICE_ANSWERS[notice]);
    },
    receiptKey: async () => (await currentKeys())[0]!,
    publicUrl,
  });

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

  /** The path below `publicUrl`: the launch's sealed segment and the action, or null when it is not a launch's path. */
  function pathOf(request: Request): { segment: string; action: string | undefined } | null {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${basePath}/`)) return null;
    const [segment = '', action, ...more] = pathname.slice(basePath.length + 1).split('/');
    return more.length === 0 && segment.length <= 1_024 ? { segment, action } : null;
  }
  const launchOf = async (request: Request) => {
    const path = pathOf(request);
    return path && (await openLaunch(path.segment, await currentKeys(), publicUrl));
  };

  const result = resultRoute({ storage, results, launchOf, receiptKeys: currentKeys, redirectFor, publicUrl, log });

  async function route(request: Request): Promise<Response> {
    const path = pathOf(request);
    if (path?.action === 'result') return result(request);
    const launch = path && (await openLaunch(path.segment, await currentKeys(), publicUrl));
    if (!launch) {
      if (path?.action === undefined && request.method === 'GET') return noticePage(pageLanguage(request), 'unknown', frameAncestors);
      throw new HttpError(ANSWERS.notFound);
    }
    if (path.action === undefined) return page(request, launch, path.segment);
    if (path.action === 'token') {
      if (request.method !== 'POST') throw new HttpError({ ...ANSWERS.methodNotAllowed, message: 'Use POST.', headers: { allow: 'POST' } });
      return token(request, launch);
    }
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
      // A revocation held by one process would not hold on the others, nor after a restart.
      if (!storage.sharedClaims)
        throw new ConfigError('launches.revoke needs a store shared by your instances (createLinkLaunches({ store }))');
      const claim = await storage.claims.claim(KEYS.revoked(id), crypto.randomUUID(), STORE_TIMEOUT_MS);
      if (claim !== 'done') await storage.claims.markDone(KEYS.revoked(id), '');
    },
    handle,
    confirm: (event) => results.confirm(event),
    async recheck(launchId) {
      if (!z.uuid().safeParse(launchId).success) throw new ConfigError('launches.recheck: launchId must be a launch id (a UUID)');
      return results.recheck(launchId);
    },
  };
}
