/** The protocol's free-form payloads hold at most this many keys (see `flatRecord` in src/protocol.ts). */
const MAX_KEYS = 50;
/** ...and strings of at most this length. */
const MAX_TEXT = 2000;

/** A payload value the frame protocol accepts. */
export type FlatValue = string | number | boolean | null;

/**
 * Flattens a job's parameters into the flat record the `success` event
 * carries: `{ allocation: { type: 'amount', value: 5000 } }` becomes
 * `{ allocation_type: 'amount', allocation_value: 5000 }`. Arrays and deeper
 * values become JSON text; long text is cut. The protocol keeps payloads flat
 * so the widget can hand them to integrators without deep validation.
 */
export function flatParams(params: Record<string, unknown>): Record<string, FlatValue> {
  const out: Record<string, FlatValue> = {};
  const put = (key: string, value: unknown) => {
    if (Object.keys(out).length >= MAX_KEYS) return;
    out[key.slice(0, 64)] = flatValue(value);
  };
  for (const [key, value] of Object.entries(params)) {
    if (isPlainObject(value)) for (const [inner, innerValue] of Object.entries(value)) put(`${key}_${inner}`, innerValue);
    else put(key, value);
  }
  return out;
}

function flatValue(value: unknown): FlatValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return text.slice(0, MAX_TEXT);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
