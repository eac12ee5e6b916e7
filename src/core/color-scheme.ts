import { ColorSchemeSchema, type ColorScheme } from '../protocol.js';

/**
 * The colour mode a session draws in: the one asked for (`color-scheme`, `colorScheme`), or `light` when none
 * was. A value outside the contract (`"blue"`, a typo) falls back to `light` with a console warning rather than
 * ending the session: a colour is no reason to cost a user their connection, and an attribute's invalid value
 * falls back to its default in HTML too.
 */
export function colorSchemeOf(asked: unknown): ColorScheme {
  if (asked === undefined || asked === null) return 'light';
  const parsed = ColorSchemeSchema.safeParse(asked);
  if (parsed.success) return parsed.data;
  console.warn(`payroll-link: color-scheme ${JSON.stringify(asked)} is not light, dark or auto: light is used.`);
  return 'light';
}
