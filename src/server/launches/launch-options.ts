/** What `createLinkLaunches` and `launches.create()` accept, checked with zod: a `ConfigError` names each wrong field. */
import * as z from 'zod';
import { functionSchema, hasMethods } from '../handler/function-schema.js';
import { isLoopbackHost } from '../handler/loopback.js';
import { BodyTimeoutMsSchema } from '../json-request.js';
import { LoggerSchema } from '../logger.js';
import { LinkTokenHandlerConfigSchema, EndUserIdSchema, type LinkTokenFieldsProvider } from '../link-token/link-token-config.js';
import { usesRequiredJobs } from '../client/service-version.js';
import type { PayrollClient } from '../client/payroll-client.js';
import type { EventClaimStore } from '../webhooks/event-claim-store.js';
import { STORE_METHODS } from '../webhooks/event-id-store.js';
import { customSchemeProblem, redirectUriProblem } from './redirect-uri.js';
import { MAX_FIELD_BYTES } from './launch-seal.js';
import { LAUNCH_STORE_METHODS, type LaunchStore } from './store/launch-store.js';
import type { LaunchFact } from './launch-verdict.js';

/** What every {@link LaunchResult} carries: whose launch, the app's value, and the Link token the flow ran with. */
interface LaunchResultBase {
  /** The launch's public id (also in the redirect's `launch_id`). */
  launchId: string;
  /** The end user the launch was created for. */
  endUserId: string;
  /** The app's `state`, as given to `create()`; null when none was. */
  state: string | null;
  /** The Link token the flow ran with: one this launch minted. */
  linkTokenId: string;
}

/**
 * How a launch's flow ended, as `onResult` gets it. Switch on `status`; act only on `success`:
 *
 * - `success`: every {@link LaunchFact} is the service's word. Final: once per launch, after which the link opens
 *   nothing.
 * - `unconfirmed`: the page reported a success that nothing refuted, but the service did not send what would
 *   confirm `unconfirmed` (see {@link LaunchFact}). Once per Link token; the launch stays open, and `confirm()` (the
 *   `account.added` webhook) or `recheck()` may still run one `success`. Decide as `docs/native-apps.md` says.
 * - `exit`: the user left without a success (once per Link token).
 */
export type LaunchResult =
  | (LaunchResultBase & {
      status: 'success';
      /** The connected account, confirmed by the service. */
      accountId: string;
      /** The job the flow ran, confirmed finished with success. */
      jobId: string;
    })
  | (LaunchResultBase & {
      status: 'unconfirmed';
      /** The account the page reported (not refuted; see `unconfirmed`). */
      accountId: string;
      /** The job the page reported. */
      jobId: string;
      /** The facts the service did not confirm (at least one). */
      unconfirmed: LaunchFact[];
    })
  | (LaunchResultBase & {
      status: 'exit';
      /** Why, as the element's `link-exit` says (`completed`, `user_closed`, `error`, `closed_by_host`). */
      exitReason?: string;
    });

/** The longest `ttlSeconds` without a shared store: a launch's completion lives in one process and dies with it. */
export const MAX_TTL_IN_ONE_PROCESS = 900;

/**
 * A URL a page is served from, frames or links to: https, or http on loopback (the sandbox, tests). A string that is
 * no URL stops at the first check (`abort`): the next one would parse it, and throw a TypeError, not a ConfigError.
 */
const webUrl = (what: string) =>
  z.url({ protocol: /^https?$/, abort: true }).refine((url) => {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || isLoopbackHost(parsed.hostname);
  }, `${what} must use https (plain http only on loopback)`);

/** A launch secret: long enough that its key cannot be guessed. */
const LaunchSecretSchema = z
  .string()
  .min(32, 'must be at least 32 characters (generate one: openssl rand -hex 32), and not the webhook secret')
  .max(512);

/** The app's value handed back in the redirect, and the end user's id: each fits the URL's one-byte length. */
const fitsTheUrl = (value: string) => new TextEncoder().encode(value).length <= MAX_FIELD_BYTES;
const FITS_THE_URL = `must be at most ${MAX_FIELD_BYTES} bytes in UTF-8`;

const product = LinkTokenHandlerConfigSchema.shape;

/** Options of `createLinkLaunches`; unknown options (the token handler's `apiSecret`, `baseUrl`, `version`) are refused. */
export const LinkLaunchesOptionsSchema = z
  .strictObject({
    /** The client that mints tokens and checks results ({@link createPayrollClient}): secret, base URL, version, rate limit. */
    client: z.custom<PayrollClient>(
      (value) => typeof value === 'object' && value !== null && 'linkTokens' in value && 'accounts' in value,
      'must be a client made by createPayrollClient',
    ),
    /** As `createLinkTokenHandler`'s. */
    orgName: product.orgName,
    /** As `createLinkTokenHandler`'s. */
    solution: product.solution,
    /** As `createLinkTokenHandler`'s. */
    features: product.features,
    /** {@link LinkTokenFieldsProvider}, given the page's token request. */
    linkTokenFields: functionSchema<LinkTokenFieldsProvider>().optional(),
    /** The service's hosted Link page (the element's `link-url`): the only origin the page frames and hears. */
    linkUrl: webUrl('linkUrl'),
    /** Where `handle()` is mounted, as the user's browser sees it. No query or fragment. */
    publicUrl: webUrl('publicUrl')
      .refine((url) => !/[?#]/.test(url), 'publicUrl must have no query or fragment')
      .refine((url) => new URL(url).username === '' && new URL(url).password === '', 'publicUrl must not carry a user name or password')
      .transform((url) => url.replace(/\/+$/, '')),
    /**
     * Your app's way to a new link (a page that makes one for the signed-in user, or says how to ask), shown as "Get a
     * new link" once a link has expired, on the flow's page and on the expired link's page. https, or http on loopback.
     * Default: none (the page says to ask for a new one).
     */
    newLinkUrl: webUrl('newLinkUrl').optional(),
    /**
     * Where a flow may return to: each `create()` names one of these, or none. Each is `https:`, `http:` on loopback,
     * your app's reverse-DNS scheme (`com.acme.app:/payroll-done`, RFC 8252 §7.1), or a scheme listed in
     * `allowCustomSchemes`; with no user name, password or fragment. Any other scheme is a `ConfigError`: the browser or
     * the system may handle it itself (`smb:`, `itms-services:`, `ms-settings:`…), taking the launch's state with it.
     */
    redirectUris: z.array(z.string()).max(254).default([]),
    /**
     * Schemes without a dot that are your app's own, allowed in `redirectUris` on purpose: `['acmeapp']` allows
     * `acmeapp://done`. Scheme names in lower case, without `:`. Prefer a reverse-DNS scheme, which needs no listing
     * and which another app is less likely to claim. A scheme the browser or the system handles itself (`javascript`,
     * `data`, `file`, `intent`, `smb`, `ms-settings`…) is refused even when listed: listing cannot make it your app's.
     * Default: none.
     */
    allowCustomSchemes: z
      .array(
        z.string().superRefine((scheme, context) => {
          const problem = customSchemeProblem(scheme);
          if (problem) context.addIssue({ code: 'custom', message: problem });
        }),
      )
      .max(50)
      .default([]),
    /** Seals the URLs: at least 32 characters; `[new, old]` while rotating (URLs sealed under either open). */
    secret: z.union([LaunchSecretSchema, z.tuple([LaunchSecretSchema, LaunchSecretSchema])]),
    /**
     * Where launches are kept, shared by your instances: `redisEventStore(redis)`, `postgresEventStore(pool)` or
     * `d1EventStore(env.DB)`, which make a success final everywhere, count the limits across instances and make
     * `revoke()` possible. A custom `EventClaimStore` is taken for the claims only (limits per instance). Default:
     * in memory, one process (warned at start-up; `ttlSeconds` at most 900).
     */
    store: z
      .custom<EventClaimStore | LaunchStore>(
        (value) => hasMethods(value, LAUNCH_STORE_METHODS) || hasMethods(value, STORE_METHODS.claim),
        'must be a LaunchStore (get, add, set, remove, increment) or an EventClaimStore (claim, markDone, release)',
      )
      .optional(),
    /** How long a launch URL works, in seconds: 1 to 604,800 (7 days); at most 900 without a shared `store`. */
    ttlSeconds: z.int().min(1).max(604_800).default(900),
    /**
     * Who may frame the page (`frame-ancestors`): origins such as `https://app.example.com`. Default: nobody. Each
     * entry is one origin alone, checked before it is a URL: the URL parser drops tabs and line breaks and takes a `;`
     * or a `,` into the host, while in the header a `;` starts another directive and a `,` another policy.
     */
    frameAncestors: z
      .array(
        z
          .string()
          .refine(
            (entry) => !/[;,\s\p{Cc}]/u.test(entry),
            "must be an origin alone: no ';', ',', whitespace or control character (in the Content-Security-Policy header a ';' starts another directive, a ',' another policy)",
          )
          .pipe(webUrl('frameAncestors').refine((url) => new URL(url).origin === url.replace(/\/$/, ''), 'must be an origin')),
      )
      .optional(),
    /** {@link BodyTimeoutMsSchema}, for a POST to the token or result route. */
    bodyTimeoutMs: BodyTimeoutMsSchema,
    /** The bound of one `onResult` call, in milliseconds. */
    resultTimeoutMs: z.int().min(1).max(120_000).default(10_000),
    /** Your work for each result (see {@link LaunchResult}): once per launch for a success, once per Link token for the others. */
    onResult: functionSchema<(result: LaunchResult) => void | Promise<void>>(),
    /** Where the launches log (default `console`); the secrets are redacted. */
    log: LoggerSchema.optional(),
  })
  .superRefine((options, context) => {
    options.redirectUris.forEach((uri, index) => {
      const problem = redirectUriProblem(uri, options.allowCustomSchemes);
      if (problem) context.addIssue({ code: 'custom', path: ['redirectUris', index], message: `${uri} ${problem}` });
    });
    if (!usesRequiredJobs(options.client.version) && options.solution === undefined)
      context.addIssue({ code: 'custom', path: ['solution'], message: `is required for version ${options.client.version}` });
  });

/** What `createLinkLaunches` accepts. */
export type LinkLaunchesOptions = z.input<typeof LinkLaunchesOptionsSchema>;

/** What `launches.create()` accepts. */
export const LaunchRequestSchema = z.strictObject({
  /** The signed-in user this launch is for: its tokens are minted for this id, never for what the browser claims. */
  endUserId: EndUserIdSchema.refine(fitsTheUrl, FITS_THE_URL),
  /** One of `redirectUris`, exactly; left out, the page shows its own end screen. */
  redirectUri: z.string().optional(),
  /** Your opaque value, handed back in the redirect. */
  state: z.string().refine(fitsTheUrl, FITS_THE_URL).optional(),
  /** An account to reconnect (a UUID). */
  accountId: z.uuid().optional(),
});

/** What `launches.create()` accepts. */
export type LaunchRequest = z.input<typeof LaunchRequestSchema>;
