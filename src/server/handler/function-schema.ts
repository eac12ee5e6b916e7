import * as z from 'zod';

/** Whether `value` is an object whose `names` are all functions: the test of a store, a logger, a client. */
export function hasMethods(value: unknown, names: readonly string[]): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');
}

/**
 * The schema of an option that is a function of the integrator's (a hook, a
 * callback): zod checks only that it is callable, and `T` gives it its type.
 */
export function functionSchema<T>(message = 'must be a function') {
  return z.custom<T>((value) => typeof value === 'function', { message });
}

/** The schema of an option that is an object with the given methods (a logger, a store), passed through unchanged. */
export function methodsSchema<T>(names: readonly string[], message: string) {
  return z.custom<T>((value) => hasMethods(value, names), { message });
}

/**
 * The schema of an `AbortSignal` option: checked by shape (an object with `aborted`), not with `instanceof`, so
 * that a signal from another realm or a polyfill passes.
 */
export const AbortSignalSchema = z.custom<AbortSignal>((value) => typeof value === 'object' && value !== null && 'aborted' in value, {
  message: 'must be an AbortSignal',
});
