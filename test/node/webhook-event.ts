/**
 * An `account.added` delivery's body as the service sends it, new ids each time; `overrides` replace its top-level
 * fields (`event`, `event_id`, `payload`), `payload` its payload's.
 */
export const accountAdded = (overrides: Record<string, unknown> = {}, payload: Record<string, unknown> = {}) => ({
  event: 'account.added',
  event_id: crypto.randomUUID(),
  payload: {
    account_id: crypto.randomUUID(),
    link_token_id: crypto.randomUUID(),
    platform_name: 'Gusto Sandbox',
    end_user_id: 'user-1',
    job_id: crypto.randomUUID(),
    ...payload,
  },
  ...overrides,
});
