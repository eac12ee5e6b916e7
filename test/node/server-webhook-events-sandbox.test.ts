/**
 * The receiver's schemas (`payroll-link/server`) read every event the sandbox
 * sends, typed, never falling back to "unknown": the two are written apart
 * (the sandbox's strict schemas say what it emits), so this keeps them in step.
 * Every kind of event is produced by the sandbox's own triggers, with the sandbox's full payloads and with only
 * the fields the spec promises (`fields: 'spec'`): the receiver must need no field the spec does not promise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WEBHOOK_EVENT_NAMES, WebhookEventSchema } from 'payroll-link/server';
import type { Sandbox } from '../../sandbox/start-sandbox.js';
import { api, platformOfType, startTestSandbox } from './sandbox-test-client.js';

/** Runs a trigger and answers the events it says it sent. */
async function send(sandbox: Sandbox, path: string, body: Record<string, unknown>, version?: string): Promise<unknown[]> {
  const response = await api(sandbox, 'POST', path, { body, ...(version && { version }) });
  assert.ok(response.status === 200 || response.status === 201, response.text);
  return response.body.data.events as unknown[];
}

for (const fields of ['full', 'spec'] as const) {
  test(`every event the sandbox sends, in both webhook versions, parses with the receiver schema of its name (fields: ${fields})`, async () => {
    const sent: unknown[] = [];
    for (const webhookVersion of ['2025-07-08', '2021-07-28'] as const) {
      const sandbox = await startTestSandbox({ webhookVersion, fields });
      try {
        const payroll = (await api(sandbox, 'POST', '/sandbox/accounts', { body: { end_user_id: 'user-1' } })).body.data;
        sent.push(...(payroll.events as unknown[]));
        const clock = (
          await api(sandbox, 'POST', '/sandbox/accounts', {
            body: { end_user_id: 'user-2', platform_id: platformOfType(sandbox, 'time_and_attendance').id },
          })
        ).body.data;
        const account = payroll.account.id as string;
        sent.push(...(await send(sandbox, '/sandbox/events', { event: 'paystubs.added', account_id: account })));
        sent.push(...(await send(sandbox, '/sandbox/events', { event: 'shifts.added', account_id: clock.account.id })));
        sent.push(...(await send(sandbox, '/sandbox/events', { event: 'verification_reports.refreshed', end_user_id: 'user-1' })));
        if (webhookVersion === '2025-07-08') {
          sent.push(
            ...(await send(sandbox, '/sandbox/events', {
              event: 'account.monitoring_status.updated',
              account_id: account,
              monitoring_status: 'disconnected',
            })),
          );
        } else {
          sent.push(...(await send(sandbox, '/sandbox/events', { event: 'account.disconnected', account_id: account }, webhookVersion)));
          sent.push(...(await send(sandbox, '/sandbox/events', { event: 'account.reconnected', account_id: account }, webhookVersion)));
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
