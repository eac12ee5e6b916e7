/** The token endpoint: its hooks decide who the token is for; the minter it shares with the launches mints it. */
import { invalidParamsAnswer, jsonResponse } from '../error-response.js';
import { HttpError } from '../handler/http-error.js';
import { postHandler } from '../handler/post-handler.js';
import type { JsonBody } from '../json-request.js';
import { LINK_TOKEN_ANSWERS } from './link-token-answers.js';
import { EndUserIdSchema, LinkTokenRequestSchema, type LinkTokenHandlerConfig } from './link-token-config.js';
import { createLinkTokenMinter } from './link-token-minter.js';

export {
  EndUserIdSchema,
  LinkTokenHandlerConfigSchema,
  LinkTokenRequestSchema,
  linkTokenRequestBody,
  type AccountAuthorizer,
  type EndUserResolver,
  type LinkTokenFieldsProvider,
  type LinkTokenHandlerConfig,
  type LinkTokenProduct,
} from './link-token-config.js';

/**
 * Creates the integrator's token endpoint: a Web-standard handler that takes the browser's
 * `POST {"end_user_id"?, "account_id"?}`, calls the service's `POST /link_tokens` with the API secret and the body for
 * the configured version, and answers `200 { data: { id, token, expires, mode } }` after checking it against the wire
 * contract. Mount it in any runtime that speaks `Request`/`Response`. Given your app's `client`, it calls through that
 * client, with its secret, base URL and version (leave those out), and scrubs its secret from the log.
 *
 * Throws a `ConfigError` naming the field when the configuration is wrong. The handler itself never throws; every
 * failure is an answer in the spec's error shape: 405/408/413/415/400 for bad browser input, 502 when the service
 * refused or answered nonsense, 503 with `Retry-After` when it stayed unavailable through the retries.
 *
 * @example
 * const handleLinkToken = createLinkTokenHandler({
 *   apiSecret: process.env.PAYROLL_API_SECRET!,
 *   baseUrl: 'http://127.0.0.1:4010',
 *   version: '2025-07-08',
 *   orgName: 'Acme Payroll',
 *   solution: 'Deposit Switch',
 *   features: ['direct_deposit_switch'],
 * });
 */
export function createLinkTokenHandler(config: LinkTokenHandlerConfig): (request: Request) => Promise<Response> {
  const { settings, log, mint, runHook, hookFailed } = createLinkTokenMinter(config);

  async function handle(request: Request, body: JsonBody): Promise<Response> {
    const input = LinkTokenRequestSchema.safeParse(body.value);
    if (!input.success) throw new HttpError(invalidParamsAnswer(input.error));
    const endUserId = await resolveEndUserId(request, input.data.end_user_id);
    await authorizeAccount(request, input.data.account_id);
    return jsonResponse(200, { data: await mint(request, { endUserId, accountId: input.data.account_id }) });
  }

  async function resolveEndUserId(request: Request, requested: string | undefined): Promise<string | undefined> {
    const hook = settings.resolveEndUserId;
    if (!hook) return requested;
    const resolved = await runHook('resolveEndUserId', () => hook(request, requested));
    if (resolved === null || resolved === undefined) return undefined;
    const checked = EndUserIdSchema.safeParse(resolved);
    if (!checked.success) throw hookFailed('resolveEndUserId', 'returned something other than a 1–255 character string');
    return checked.data;
  }

  /** Returns when the request may go on: no account asked for, or the integrator's hook allowed it. */
  async function authorizeAccount(request: Request, accountId: string | undefined): Promise<void> {
    if (accountId === undefined) return;
    const hook = settings.authorizeAccount;
    if (!hook) throw new HttpError(LINK_TOKEN_ANSWERS.accountIdNotAccepted);
    if ((await runHook('authorizeAccount', () => hook(request, accountId))) === true) return;
    throw new HttpError(LINK_TOKEN_ANSWERS.accountNotAuthorized, {
      level: 'warn',
      message: 'link token: authorizeAccount refused an account',
      fields: { accountId },
    });
  }

  return postHandler({
    subject: 'link token',
    log,
    postOnly: 'Use POST.',
    maxBodyBytes: settings.maxBodyBytes,
    bodyTimeoutMs: settings.bodyTimeoutMs,
    internalError: LINK_TOKEN_ANSWERS.internal,
    handle,
  });
}
