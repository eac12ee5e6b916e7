/**
 * The one keyed comparison: whether two records built alike hold the same values, key by key (the keys of `a`):
 * `===`, and a plain object (the words of a place, say) compared the same way. Anything else (an element, a
 * function) is compared as itself. The element's prefetch compares with it whether a frame built ahead is for
 * this place, and whether what decides a prefetch changed (see `LinkPrefetch`).
 */
export function sameRecord(a: object, b: object): boolean {
  return Object.entries(a).every(([key, value]: [string, unknown]) => {
    const other = b[key as keyof typeof b] as unknown;
    return value === other || (value?.constructor === Object && sameRecord(value as object, other as object));
  });
}
