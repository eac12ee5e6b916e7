/** A copy of plain JSON data, or what made it something else. */
export type PlainJsonResult = { ok: true; value: unknown } | { ok: false; problem: string };

/** Deeper than any field an integrator adds to a token request; bounds the walk, too. */
const MAX_DEPTH = 32;

/**
 * Copies `value` if it is plain JSON data: strings, finite numbers, booleans, null, arrays and objects whose prototype
 * is `Object.prototype` or null, with own enumerable data properties only. Anything that could serialise as something
 * other than what a check saw (a `toJSON`, a getter, a class instance, a Date, a function) is refused rather than
 * copied: the copy is what goes upstream, so a check on it cannot be gone around.
 */
export function plainJsonCopy(value: unknown, depth = 0): PlainJsonResult {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number')
    return Number.isFinite(value) ? { ok: true, value } : { ok: false, problem: 'a number that is not finite' };
  if (typeof value !== 'object') return { ok: false, problem: `a ${typeof value}` };
  if (depth >= MAX_DEPTH) return { ok: false, problem: `data nested deeper than ${MAX_DEPTH} levels` };
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return { ok: false, problem: 'an array with another prototype' };
    const items: unknown[] = [];
    for (let index = 0; index < value.length; index++) {
      const descriptor = Object.getOwnPropertyDescriptor(value, index);
      if (descriptor === undefined || !('value' in descriptor))
        return { ok: false, problem: `an array with a hole or an accessor at ${index}` };
      const item = plainJsonCopy(descriptor.value, depth + 1);
      if (!item.ok) return item;
      items.push(item.value);
    }
    return { ok: true, value: items };
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null)
    return { ok: false, problem: 'an object that is not a plain object (a class instance, a Date...)' };
  const copy: Record<string, unknown> = {};
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key === 'symbol') return { ok: false, problem: 'an object with a symbol key' };
    const descriptor = Object.getOwnPropertyDescriptor(value, key)!;
    if (!('value' in descriptor)) return { ok: false, problem: `an accessor (get/set) at ${key}` };
    if (!descriptor.enumerable) return { ok: false, problem: `a non-enumerable property at ${key}` };
    if (key === 'toJSON') return { ok: false, problem: 'an object with its own toJSON' };
    const item = plainJsonCopy(descriptor.value, depth + 1);
    if (!item.ok) return item;
    // defineProperty, not assignment: a "__proto__" key stays a plain key of the copy.
    Object.defineProperty(copy, key, { value: item.value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: copy };
}
