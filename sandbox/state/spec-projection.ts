/**
 * The one mechanism that applies `SPEC_FIELDS`: a copy of a value with only the table's fields, for the
 * service API's answers (`http/spec-answer.ts`) and the webhook payloads, as they leave. The records themselves
 * keep every field: the sandbox's rules (filters, platform types, job states) still read them.
 */
import { specFieldsOfEvent, type SpecFieldTable } from './spec-fields.js';
import type { SandboxWebhookEventName, SandboxWebhookPayload } from './resources.js';

/** Whether a `when` field of the table is kept in this payload. */
type Keeps = (when: 'set' | 'link-initiated', value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` with only the fields of `table` (and so on inside its object fields); a field it lacks stays absent. */
const keep = (value: unknown, table: SpecFieldTable, keeps: Keeps): unknown => {
  if (!isObject(value)) return value;
  const kept: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(table)) {
    if (!Object.hasOwn(value, name)) continue;
    const field = value[name];
    if (typeof rule === 'object' && 'when' in rule && !keeps(rule.when, field)) continue;
    kept[name] = typeof rule === 'object' && 'fields' in rule ? keep(field, rule.fields, keeps) : field;
  }
  return kept;
};

/** A resource as the spec shows it, given what the spec promises of it (`specFieldsOfAnswer`; a resource has no `when` field). */
export const specResource = (fields: SpecFieldTable, value: unknown): unknown => keep(value, fields, () => true);

/**
 * A webhook payload as the spec shows it. Typed as the full payload, so that the envelope and `store.events` keep
 * their one type, though only the table's fields are there (`store.events` says so).
 */
export const specPayload = <N extends SandboxWebhookEventName>(name: N, payload: SandboxWebhookPayload<N>): SandboxWebhookPayload<N> => {
  // The sandbox names the Link token of a job Link started, and null for an on-demand one: that tells the two apart.
  const linkInitiated = typeof (payload as { link_token_id?: unknown }).link_token_id === 'string';
  const keeps: Keeps = (when, value) => (when === 'set' ? value !== null && value !== undefined : linkInitiated);
  return keep(payload, specFieldsOfEvent(name), keeps) as SandboxWebhookPayload<N>;
};
