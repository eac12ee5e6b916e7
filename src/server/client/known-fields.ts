/** A key a type spells out: not the `string` or `number` of an index signature. */
type KnownKey<K> = string extends K ? never : number extends K ? never : K;

/**
 * A loose schema's output without its index signature, at every depth: its known fields only. `looseObject`
 * infers `{ id: string; …; [x: string]: unknown }`, and a type with an index signature loses its known keys to
 * `keyof` (`string | number`), so JSON typings built on mapped types (Nuxt's `SerializeObject` for `useFetch`,
 * type-fest's `Jsonify`) turned every resource into `{ [x: string]: never }`: a misspelt field passed and a real
 * one failed. The schemas stay loose at run time (an unknown field still passes through); read one by casting
 * (`(income as Record<string, unknown>)['bonus']`). An object with no known key is a record (`Job`'s `params`) and
 * keeps its index signature.
 */
export type KnownFields<T> = T extends readonly (infer Item)[]
  ? KnownFields<Item>[]
  : T extends object
    ? [keyof { [K in keyof T as KnownKey<K>]: unknown }] extends [never]
      ? T
      : { [K in keyof T as KnownKey<K>]: KnownFields<T[K]> }
    : T;
