/**
 * What `handle()` serves below `publicUrl`: the page (`GET /<segment>`), its token route (`POST /<segment>/token`: a
 * Link token for the launch's end user, with a sealed receipt) and its result route (`POST /<segment>/result`).
 * Web-standard, no Node built-in: it runs on workerd.
 */
import * as z from 'zod';
import { ConfigError } from '../config-error.js';
import { HttpError } from '../handler/http-error.js';
import { answerErrors, parseOptions } from '../handler/post-handler.js';
import { requestsAreIsolated } from '../handler/request-isolation.js';
import { redactingLogger } from '../logger.js';
import { clientSecret } from '../client/client-secret.js';
import { oncePerEvent } from '../webhooks/once-per-event.js';
import { ANSWERS } from './launch-answers.js';
import { launchMinter } from './launch-minter.js';
import { launchPageRoute } from './launch-page-route.js';
import { KEYS, launchStorage, STORE_TIMEOUT_MS } from './launch-records.js';
import { launchRedirects } from './launch-redirects.js';
import { launchResults, type LaunchCheck } from './launch-results.js';
import { resultRoute } from './launch-result-route.js';
import { tokenRoute } from './launch-token-route.js';
import { launchKey, openLaunch, redirectTag, sealLaunch } from './launch-seal.js';
import { noticePage, pageLanguage } from './launch-page.js';
import { LaunchRequestSchema, LinkLaunchesOptionsSchema, type LaunchRequest, type LinkLaunchesOptions } from './launch-options.js';

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
 * whose scheme is not https, loopback http, a reverse-DNS app scheme or one listed in `allowCustomSchemes`, a missing
 * `client`, an unknown option.
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
  // The client's API secret too: a store's or a callback's error may echo it.
  const log = redactingLogger(settings.log ?? console, [...secrets, clientSecret(client) ?? '']);
  const storage = launchStorage(settings.store, ttlSeconds, log);
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

  const mint = launchMinter(settings, log);

  const newLinkUrl = settings.newLinkUrl ?? null;
  const { page, requireOpen } = launchPageRoute({ storage, linkUrl: settings.linkUrl, newLinkUrl, basePath, frameAncestors });
  const redirectFor = launchRedirects(redirectUris, log);

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

  const { bodyTimeoutMs } = settings;
  const result = resultRoute({ storage, results, launchOf, receiptKeys: currentKeys, redirectFor, publicUrl, bodyTimeoutMs, log });
  const receiptKey = async () => (await currentKeys())[0]!;
  const token = tokenRoute({ storage, launchOf, mint, requireOpen, receiptKey, publicUrl, bodyTimeoutMs, log });

  async function route(request: Request): Promise<Response> {
    const path = pathOf(request);
    if (path?.action === 'result') return result(request);
    if (path?.action === 'token') return token(request);
    const launch = path && (await openLaunch(path.segment, await currentKeys(), publicUrl));
    if (!launch) {
      if (path?.action === undefined && request.method === 'GET') return noticePage(pageLanguage(request), 'unknown', frameAncestors);
      throw new HttpError(ANSWERS.notFound);
    }
    if (path.action === undefined) return page(request, launch, path.segment);
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
