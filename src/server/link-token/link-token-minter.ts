/**
 * Minting a Link token, once for both callers (the token handler and the launches' token route): the fields in (the end
 * user and the account, already decided by the caller), the integrator's `linkTokenFields` hook, one
 * `POST /link_tokens` within `timeouts.totalMs`, the log line, and the token out; every failure an {@link HttpError}
 * the caller's boundary answers.
 */
import { HttpError } from '../handler/http-error.js';
import { parseOptions } from '../handler/post-handler.js';
import { redactingLogger, type Logger } from '../logger.js';
import { plainJsonCopy } from '../handler/plain-json.js';
import { describeError } from '../describe-error.js';
import { handlerCallPolicy } from '../client/service-connection.js';
import { createPayrollClientWith } from '../client/payroll-client.js';
import { clientSecret } from '../client/client-secret.js';
import { isPayrollApiError } from '../client/payroll-api-error.js';
import { withinTime } from '../handler/time-bound.js';
import { timeLimit } from '../../shared/time-limit.js';
import type { LinkToken } from '../../protocol/link-token.js';
import { LINK_TOKEN_ANSWERS, unavailableAnswer, upstreamFailure } from './link-token-answers.js';
import {
  LinkTokenHandlerConfigSchema,
  linkTokenRequestBody,
  RESERVED_FIELDS,
  serviceVersionOf,
  type LinkTokenHandlerConfig,
} from './link-token-config.js';

/** Who the token is for: decided by the caller (its hook, or the launch), never by what the browser claims. */
export interface MintFields {
  endUserId?: string | undefined;
  accountId?: string | undefined;
}

/** Makes the minter of a configuration (checked here: a `ConfigError` naming each wrong field). */
export function createLinkTokenMinter(config: LinkTokenHandlerConfig, what = 'link-token handler config') {
  const settings = parseOptions(LinkTokenHandlerConfigSchema, config, what);
  // The schema checked that there is a client, or an apiSecret and a version. The secret of a client
  // createPayrollClient made is kept beside it (server/client/client-secret.ts); a look-alike's is not ours to know.
  const apiSecret = settings.client ? clientSecret(settings.client) : settings.apiSecret;
  const version = serviceVersionOf(settings)!;
  const log: Logger = redactingLogger(settings.log ?? console, apiSecret === undefined ? [] : [apiSecret]);
  const policy = handlerCallPolicy(settings);
  const client =
    settings.client ??
    createPayrollClientWith(
      {
        apiSecret: apiSecret!,
        baseUrl: settings.baseUrl!,
        version,
        fetch: settings.fetch,
        log,
        mode: settings.mode,
        rateLimit: settings.rateLimit,
      },
      policy.retry,
    );

  /** A hook of the integrator's that failed: the browser gets a generic 500, the log the reason. */
  function hookFailed(hook: string, problem: string): HttpError {
    return new HttpError(LINK_TOKEN_ANSWERS.internal, { level: 'error', message: `link token: ${hook} ${problem}` });
  }

  /** Runs one of the integrator's hooks: what it returned; it throws the 500 for a hook that threw, the 503 for one that took too long. */
  async function runHook(hook: string, call: () => unknown): Promise<unknown> {
    let result;
    try {
      result = await withinTime(call, settings.hookTimeoutMs);
    } catch (error) {
      throw hookFailed(hook, `threw: ${describeError(error)}`);
    }
    if (result.settled) return result.value;
    throw new HttpError(LINK_TOKEN_ANSWERS.hookTimeout, {
      level: 'error',
      message: `link token: ${hook} did not settle within ${settings.hookTimeoutMs} ms (hookTimeoutMs); answering 503`,
    });
  }

  async function linkTokenFields(request: Request): Promise<Record<string, unknown>> {
    const hook = settings.linkTokenFields;
    if (!hook) return {};
    const value = await runHook('linkTokenFields', () => hook(request));
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw hookFailed('linkTokenFields', 'returned something other than an object');
    // A copy of plain data: what goes upstream is exactly what the reserved-field check below saw.
    const copy = plainJsonCopy(value);
    if (!copy.ok) throw hookFailed('linkTokenFields', `returned something other than plain JSON data: ${copy.problem}`);
    const fields = copy.value as Record<string, unknown>;
    const reserved = Object.keys(fields).filter((key) => RESERVED_FIELDS.has(key));
    if (reserved.length > 0) throw hookFailed('linkTokenFields', `returned fields the handler sets itself: ${reserved.join(', ')}`);
    return fields;
  }

  /** Mints a token for `fields` (the `linkTokenFields` hook gets `request`): the token, or an {@link HttpError}. */
  async function mint(request: Request, { endUserId, accountId }: MintFields): Promise<LinkToken> {
    const extraFields = await linkTokenFields(request);
    const serviceBody = linkTokenRequestBody(version, settings, endUserId, accountId, extraFields);
    // The overall budget: every attempt, retry and wait for the rate limiter within it.
    const [overall, , disposeOverall] = timeLimit(
      settings.timeouts.totalMs,
      undefined,
      () => new DOMException('totalMs passed', 'TimeoutError'),
    );
    try {
      const token = await client.linkTokens.create(serviceBody as { org_name: string }, { ...policy.call, signal: overall });
      // The id identifies the token in the service's events; the token itself stays out of the log.
      log.info('link token created', { linkTokenId: token.id, mode: token.mode, requestId: token.response.requestId });
      return { id: token.id, token: token.token, expires: token.expires, mode: token.mode };
    } catch (error) {
      if (isPayrollApiError(error)) throw upstreamFailure(error, settings.baseUrl);
      if (!overall.aborted) throw error;
      throw new HttpError(unavailableAnswer(1), {
        level: 'error',
        message: `payroll service POST /link_tokens: no token within ${settings.timeouts.totalMs} ms (timeouts.totalMs): no answer, or still waiting for a slot under the rate limit`,
      });
    } finally {
      disposeOverall();
    }
  }

  return { settings, log, mint, runHook, hookFailed };
}
