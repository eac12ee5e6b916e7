/**
 * A short, secret-free description of a thrown value: the error code or name and message. It never throws
 * itself: it runs inside the handlers' catch blocks, where a throw of its own (a thrown object without a
 * prototype cannot become a string) would skip the clean-up after it, such as the release of an event's claim.
 */
export function describeError(error: unknown): string {
  try {
    if (!(error instanceof Error)) return String(error);
    const cause = error.cause as { code?: unknown } | undefined;
    const code = cause && typeof cause.code === 'string' ? cause.code : null;
    return code ? `${code}: ${error.message}` : `${error.name}: ${error.message}`;
  } catch {
    return 'a thrown value that cannot be described';
  }
}
