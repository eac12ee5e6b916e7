import type { z } from 'zod';

/**
 * A configuration mistake found at start-up: a missing secret, an unknown
 * version, a port already in use. Its message names the field (or environment
 * variable) and what is expected, and is meant to be printed as it is, without
 * a stack trace. It never contains a configured value.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  /** Builds the error from a failed zod parse; `fieldName` maps a path to what the user wrote (e.g. an env var). */
  static fromZod(what: string, error: z.ZodError, fieldName: (path: PropertyKey[]) => string = (path) => path.join('.')): ConfigError {
    const lines = error.issues.map((issue) => `  - ${fieldName(issue.path) || '(root)'}: ${issue.message}`);
    return new ConfigError(`Invalid ${what}:\n${lines.join('\n')}`);
  }
}
