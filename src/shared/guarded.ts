/** Calls an integrator's function; if it throws, the error is reported to the page, never thrown into ours. */
export function guarded<T>(callback: ((value: T) => void) | undefined, value: T): void {
  try {
    callback?.(value);
  } catch (error) {
    reportError(error);
  }
}
