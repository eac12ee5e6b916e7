/**
 * Sandbox triggers: what only the sandbox offers, so an integrator's backend
 * tests can reach every state and every webhook without clicking through Link
 * (in the spirit of `stripe trigger`). Under `/sandbox/*`, behind the same
 * checks as the service API (sandbox secret, Service-Version, rate limit); they
 * exist in this sandbox only, never in the service's other modes.
 *
 * - `POST /sandbox/accounts`: connect an account for an end user, as a Link
 *   login would (`account.added`, then its first sync's events).
 * - `POST /sandbox/events`: fire one webhook event of the spec for an account
 *   or end user, by doing what makes the service send it.
 * - `POST /sandbox/accounts/{id}/require_reauth`: the re-authentication
 *   scenario: on-demand updates need the user to log in again.
 * - `POST /sandbox/events/{event_id}/resend`: deliver an event again, same
 *   envelope and `event_id`, as the service's retries do (in the spirit of
 *   `stripe events resend`): how a receiver's idempotency is tested.
 *
 * Every answer lists the events it sent (`events`), so a test can wait for
 * exactly those `event_id`s at its receiver.
 */
import { z } from 'zod';
import { requireAccount, requireSupport } from './accounts-api.js';
import { connectAccount } from '../state/connect-account.js';
import { apiError, invalidParams, notFound } from '../http/errors.js';
import { jsonResponse } from '../http/http-types.js';
import { requireConnected } from '../state/job-rules.js';
import { SANDBOX_USERNAMES, SANDBOX_USERS } from '../state/sandbox-users.js';
import { changeMonitoringStatus } from '../state/monitoring.js';
import {
  MonitoringStatusSchema,
  type MonitoringStatus,
  type SandboxWebhookEvent,
  type SandboxWebhookEventName,
} from '../state/resources.js';
import type { Router } from '../http/router.js';
import type { ApiExtra, SandboxDeps } from '../sandbox-deps.js';
import type { AccountRecord } from '../state/store.js';
import { parseBody, parseParam } from '../http/validate.js';
import { emitReportsRefreshed } from '../state/verification-reports.js';
import { LAST_LEGACY_ACCOUNT_EVENTS_VERSION, LEGACY_ACCOUNT_EVENTS, isAtOrBefore } from '../http/versions.js';

/** `POST /sandbox/accounts`: where the account is (a platform, an employer, or neither: the most used payroll platform) and who logs in. */
export const CreateAccountRequestSchema = z.strictObject({
  end_user_id: z.string().min(1).max(255).optional(),
  platform_id: z.uuid().optional(),
  employer_id: z.uuid().optional(),
  /** The sandbox test user the account behaves as (its jobs succeed, fail or pend); `user_good` by default. */
  username: z.enum(SANDBOX_USERNAMES).default('user_good'),
});

/** `POST /sandbox/events`: the event, and the account or end user it is about. */
export const TriggerEventRequestSchema = z.strictObject({
  event: z.string().min(1),
  account_id: z.uuid().optional(),
  end_user_id: z.string().min(1).max(255).optional(),
  /** For `account.monitoring_status.updated` only: the status to move the account to. */
  monitoring_status: MonitoringStatusSchema.optional(),
});

type TriggerInput = z.infer<typeof TriggerEventRequestSchema>;

/** `POST /sandbox/accounts/{id}/require_reauth` and `POST /sandbox/events/{event_id}/resend` take no fields (an empty body or `{}`). */
const EmptyBodySchema = z.strictObject({});

/** Adds the `/sandbox/*` trigger routes. */
export const addTriggerRoutes = (router: Router<ApiExtra>, deps: SandboxDeps): void => {
  const { store } = deps;

  const accountFor = (input: TriggerInput): AccountRecord => {
    if (input.account_id === undefined) {
      throw apiError(400, 'INVALID_REQUEST_PARAMETERS', 'MISSING_FIELDS', `account_id is required for ${input.event}`);
    }
    return requireAccount(store, input.account_id);
  };

  /** 400 EVENT_NOT_IN_VERSION when the sandbox's webhook version does not have this account event. */
  const requireAccountEventOfVersion = (event: SandboxWebhookEventName): void => {
    const legacy = isAtOrBefore(deps.webhookVersion, LAST_LEGACY_ACCOUNT_EVENTS_VERSION);
    const isLegacyEvent = LEGACY_ACCOUNT_EVENTS.includes(event);
    if (legacy === isLegacyEvent) return;
    throw apiError(
      400,
      'INVALID_REQUEST_PARAMETERS',
      'EVENT_NOT_IN_VERSION',
      isLegacyEvent
        ? `${event} is deprecated: webhook versions after ${LAST_LEGACY_ACCOUNT_EVENTS_VERSION} send account.monitoring_status.updated instead, and this sandbox sends ${deps.webhookVersion} (--webhook-version)`
        : `${event} does not exist in webhook version ${deps.webhookVersion}: up to ${LAST_LEGACY_ACCOUNT_EVENTS_VERSION} it is account.disconnected / account.reconnected`,
    );
  };

  const move = (input: TriggerInput, to: MonitoringStatus): SandboxWebhookEvent[] => {
    const record = accountFor(input);
    const sent = changeMonitoringStatus(deps, record, to);
    if (sent === null) throw apiError(409, 'CONFLICT', 'MONITORING_STATUS_UNCHANGED', `The account's monitoring_status is already ${to}`);
    return [sent];
  };

  const sync =
    (kind: 'paystubs' | 'shifts') =>
    (input: TriggerInput): SandboxWebhookEvent[] => {
      const record = accountFor(input);
      requireSupport(record, kind);
      requireConnected(record.account);
      // An on-demand sync that succeeds now, whatever the account's test user: its events are the real ones.
      const job = store.addJob({ name: kind, accountId: record.account.id, linkTokenId: null }, false);
      return deps.runner.succeed(job);
    };

  // A record over every event name: a new event of the receiver's schema (WebhookEventSchema, and so of
  // SandboxWebhookEventSchema) does not compile until it has its trigger here.
  const triggers: Record<SandboxWebhookEventName, (input: TriggerInput) => SandboxWebhookEvent[]> = {
    'account.added': (input) => {
      const { account } = accountFor(input);
      // Every account is created with its Link job (connect-account.ts), so there is one.
      const linkJob = store.jobs().find(({ job }) => job.account_id === account.id && job.link_token_id === account.link_token_id)!;
      return [
        deps.emit('account.added', {
          account_id: account.id,
          platform_id: account.platform_id,
          platform_name: account.platform_name,
          link_token_id: account.link_token_id,
          end_user_id: account.end_user_id,
          job_id: linkJob.job.id,
        }),
      ];
    },
    'paystubs.added': sync('paystubs'),
    'shifts.added': sync('shifts'),
    'verification_reports.refreshed': (input) => {
      if ((input.account_id === undefined) === (input.end_user_id === undefined)) {
        throw invalidParams("verification_reports.refreshed takes either end_user_id or account_id (the account's end user)");
      }
      const endUserId = input.end_user_id ?? accountFor(input).account.end_user_id;
      if (endUserId === null) throw invalidParams('account_id: this account was connected without an end_user_id');
      if (store.accountsOfEndUser(endUserId).length === 0)
        throw notFound('END_USER_NOT_FOUND', `No end user ${endUserId} has connected an account`);
      return [emitReportsRefreshed(store, deps.emit, endUserId)];
    },
    'account.monitoring_status.updated': (input) => {
      requireAccountEventOfVersion('account.monitoring_status.updated');
      if (input.monitoring_status === undefined) {
        throw apiError(
          400,
          'INVALID_REQUEST_PARAMETERS',
          'MISSING_FIELDS',
          'monitoring_status is required for account.monitoring_status.updated',
        );
      }
      return move(input, input.monitoring_status);
    },
    'account.disconnected': (input) => {
      requireAccountEventOfVersion('account.disconnected');
      return move(input, 'disconnected');
    },
    'account.reconnected': (input) => {
      requireAccountEventOfVersion('account.reconnected');
      return move(input, 'active');
    },
  };

  router.on('POST', '/sandbox/accounts', ({ request, extra }) => {
    const input = parseBody(request, CreateAccountRequestSchema, { optional: true });
    const { catalogue } = store;
    const employer = input.employer_id === undefined ? undefined : catalogue.employerById.get(input.employer_id);
    if (input.employer_id !== undefined && !employer) throw notFound('EMPLOYER_NOT_FOUND', `No employer ${input.employer_id}`);
    const platformId = input.platform_id ?? employer?.platform_id;
    const platform =
      platformId === undefined
        ? catalogue.platforms.filter(({ item }) => item.type === 'payroll').sort((a, b) => a.popularity - b.popularity)[0]!.item
        : catalogue.platformById.get(platformId);
    if (!platform) throw notFound('PLATFORM_NOT_FOUND', `No platform ${platformId}`);
    if (employer && employer.platform_id !== platform.id) throw invalidParams('employer_id: this employer is not on the given platform_id');
    // A spent Link token stands for the session Link would have had: accounts always come from one.
    const jobName = platform.type === 'time_and_attendance' ? 'shifts' : 'paystubs';
    const token = store.addLinkToken(
      {
        version: extra.version,
        orgName: 'Sandbox trigger',
        jobs: [jobName],
        solution: null,
        endUserId: input.end_user_id ?? null,
        employerId: employer?.id ?? null,
        platformId: platform.id,
        accountId: null,
        language: null,
        skipIntroScreen: true,
        allocation: null,
      },
      deps.tokenTtlSeconds,
    );
    token.used = true;
    const eventsBefore = store.events.length;
    const { account, job } = connectAccount(deps, { token, platform, employer, scenario: SANDBOX_USERS[input.username], jobName });
    deps.runner.start(job);
    return jsonResponse(201, { data: { account: account.account, job: job.job, events: store.events.slice(eventsBefore) } });
  });

  router.on('POST', '/sandbox/events', ({ request }) => {
    const input = parseBody(request, TriggerEventRequestSchema);
    const trigger = Object.hasOwn(triggers, input.event) ? triggers[input.event as SandboxWebhookEventName] : undefined;
    if (!trigger) throw invalidParams(`event: one of ${Object.keys(triggers).join(', ')}`);
    if (input.monitoring_status !== undefined && input.event !== 'account.monitoring_status.updated') {
      throw invalidParams('monitoring_status: only for account.monitoring_status.updated');
    }
    if (input.end_user_id !== undefined && input.event !== 'verification_reports.refreshed') {
      throw invalidParams('end_user_id: only for verification_reports.refreshed; the other events take account_id');
    }
    return jsonResponse(200, { data: { events: trigger(input) } });
  });

  router.on('POST', '/sandbox/events/:event_id/resend', ({ request, params }) => {
    const eventId = parseParam('event_id', params['event_id']!, z.uuid());
    parseBody(request, EmptyBodySchema, { optional: true });
    const event = store.events.find((sent) => sent.event_id === eventId);
    if (!event) throw notFound('EVENT_NOT_FOUND', `No event ${eventId} was sent by this sandbox`);
    // The same object, not a copy with a new id: a receiver must see exactly what a retry of the service would send.
    deps.redeliver(event);
    return jsonResponse(200, { data: { events: [event] } });
  });

  router.on('POST', '/sandbox/accounts/:id/require_reauth', ({ request, params }) => {
    const record = requireAccount(store, parseParam('id', params['id']!, z.uuid()));
    parseBody(request, EmptyBodySchema, { optional: true });
    if (!record.account.connected)
      throw apiError(403, 'FORBIDDEN', 'ACCOUNT_DISCONNECTED', 'This account is disconnected: reconnect it first');
    // A second call changes nothing and sends nothing, like a second disconnect.
    const sent = changeMonitoringStatus(deps, record, 'user_action_required');
    return jsonResponse(200, { data: { account: record.account, events: sent ? [sent] : [] } });
  });
};
