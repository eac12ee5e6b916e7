/** A short, secret-free description of a thrown value: the error code or name and message. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown } | undefined;
  const code = cause && typeof cause.code === 'string' ? cause.code : null;
  return code ? `${code}: ${error.message}` : `${error.name}: ${error.message}`;
}
