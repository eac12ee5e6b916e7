import type { z } from 'zod';

/**
 * A configuration mistake found at start-up: a missing secret, an unknown version, a port already in use. Its message
 * names the field (or environment variable) and what is expected, and is meant to be printed as it is, without a stack
 * trace. It never contains a configured value.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  /**
   * Builds the error from a failed zod parse; `fieldName` maps a path to what the user wrote (e.g. an env var).
   * Parsed with `{ reportInput: true }`, an option that is not there is called missing, not wrong.
   */
  static fromZod(what: string, error: z.ZodError, fieldName: (path: PropertyKey[]) => string = (path) => path.join('.')): ConfigError {
    const lines = error.issues.map((issue) => `  - ${fieldName(issue.path) || '(root)'}: ${issueText(issue)}`);
    return new ConfigError(`Invalid ${what}:\n${lines.join('\n')}`);
  }
}

/**
 * What an issue says. zod words a value that is not there as a wrong one ("Invalid input: expected string, received
 * undefined", or a schema's own "must be one of …"): with the input reported (and read here for `undefined` only,
 * never printed), a missing option says so, and keeps what is expected. This package's own messages start in lower
 * case ("must be …"); zod's start with a capital.
 */
function issueText(issue: z.core.$ZodIssue): string {
  const missing = 'input' in issue && issue.input === undefined;
  if (!missing || /^is (required|missing)\b/.test(issue.message)) return issue.message;
  if (/^[a-z]/.test(issue.message)) return `is missing; it ${issue.message}`;
  const expected = [...new Set(expectedTypes(issue))];
  return expected.length > 0 ? `is missing (expected ${expected.join(' or ')})` : 'is missing';
}

/** The types an issue about a value says it expected: its own, or each branch's of a union. */
function expectedTypes(issue: z.core.$ZodIssue): string[] {
  if (issue.code === 'invalid_type') return [issue.expected];
  if (issue.code === 'invalid_union')
    return issue.errors
      .flat()
      .filter((inner) => inner.path.length === 0)
      .flatMap(expectedTypes);
  return [];
}
