/**
 * The receiver's schemas (`payroll-link/server`) read every event the sandbox
 * sends, typed, never falling back to "unknown": the two are written apart
 * (the sandbox's strict schemas say what it emits), so this keeps them in step.
 * Every event of the receiver's schema is fired by the sandbox's own trigger, in both webhook versions (an event a
 * version does not have is refused there), with the sandbox's full payloads and with only the fields the spec
 * promises (`fields: 'spec'`): the receiver must need no field the spec does not promise. The events come from the
 * schema, so a new one is fired here with no edit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WEBHOOK_EVENT_NAMES, WebhookEventSchema, type WebhookEventName } from 'payroll-link/server';
import { api, platformOfType, startTestSandbox } from './sandbox-test-client.js';

/** The accounts a trigger is fired for: a payroll one (with an end user), a time-and-attendance one, one whose status moves. */
interface Accounts {
  readonly payroll: string;
  readonly clock: string;
  readonly moved: string;
}

/**
 * What a trigger takes, for the events that take more than the payroll account (`{ account_id }`). The events that
 * move an account's status move their own account, so the others still find theirs connected; they are fired in
 * the schema's order (`account.disconnected` before `account.reconnected`).
 */
const INPUT: { readonly [N in WebhookEventName]?: (accounts: Accounts) => Record<string, unknown> } = {
  'shifts.added': ({ clock }) => ({ account_id: clock }),
  'verification_reports.refreshed': () => ({ end_user_id: 'user-1' }),
  'account.monitoring_status.updated': ({ moved }) => ({ account_id: moved, monitoring_status: 'disconnected' }),
  'account.disconnected': ({ moved }) => ({ account_id: moved }),
  'account.reconnected': ({ moved }) => ({ account_id: moved }),
};

for (const fields of ['full', 'spec'] as const) {
  test(`every event of the receiver's schema, fired by the sandbox in both webhook versions, parses with the receiver schema of its name (fields: ${fields})`, async () => {
    const sent: unknown[] = [];
    for (const webhookVersion of ['2025-07-08', '2021-07-28'] as const) {
      const sandbox = await startTestSandbox({ webhookVersion, fields, jobDelayMs: 3_600_000 });
      try {
        const connect = async (body: Record<string, unknown>): Promise<string> => {
          const created = await api(sandbox, 'POST', '/sandbox/accounts', { body });
          assert.equal(created.status, 201, created.text);
          sent.push(...(created.body.data.events as unknown[]));
          return created.body.data.account.id as string;
        };
        const accounts: Accounts = {
          payroll: await connect({ end_user_id: 'user-1' }),
          clock: await connect({ end_user_id: 'user-2', platform_id: platformOfType(sandbox, 'time_and_attendance').id }),
          moved: await connect({ end_user_id: 'user-3' }),
        };
        for (const event of WEBHOOK_EVENT_NAMES) {
          const body = { event, ...(INPUT[event]?.(accounts) ?? { account_id: accounts.payroll }) };
          const response = await api(sandbox, 'POST', '/sandbox/events', { body, version: webhookVersion });
          if (response.status === 400 && response.body.error?.error_codes?.[0]?.error_code === 'EVENT_NOT_IN_VERSION') continue;
          assert.equal(response.status, 200, `${event} (webhook version ${webhookVersion}): ${response.text}`);
          sent.push(...(response.body.data.events as unknown[]));
        }
      } finally {
        await sandbox.close();
      }
    }
    const names = new Set<string>();
    for (const event of sent) {
      const parsed = WebhookEventSchema.safeParse(event);
      assert.ok(parsed.success, `${JSON.stringify(event)}: ${parsed.error?.message}`);
      names.add(parsed.data.event);
    }
    assert.deepEqual([...names].sort(), [...WEBHOOK_EVENT_NAMES].sort(), 'every event the spec lists was produced');
  });
}
