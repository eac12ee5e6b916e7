import { methodsSchema } from './handler/function-schema.js';

/**
 * Where the token and webhook handlers write what happened. `console` fits, and so do
 * most structured loggers (pino, winston) through a two-line wrapper: each call
 * is one line of text plus an object of fields.
 */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Accepts any object with `info`, `warn` and `error` methods (such as `console`), unchanged. */
export const LoggerSchema = methodsSchema<Logger>(
  ['info', 'warn', 'error'],
  'must be an object with info, warn and error methods (console works)',
);

const REDACTED = '[redacted]';

/**
 * Wraps `log` so that none of the given secrets can reach it, whatever an
 * upstream message happens to echo (a second line of defence: the callers
 * never log a secret on purpose), and so that a logger that throws is ignored.
 */
export function redactingLogger(log: Logger, secrets: readonly string[]): Logger {
  const hidden = secrets.filter((secret) => secret.length > 0);
  const scrub = (text: string) => hidden.reduce((acc, secret) => acc.replaceAll(secret, REDACTED), text);
  const scrubValue = (value: unknown): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (Array.isArray(value)) return value.map(scrubValue);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubValue(inner)]));
    }
    return value;
  };
  const wrap =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      // A logger that throws (a full disk, a closed transport) must not turn an answer into a rejected promise.
      try {
        if (fields === undefined) log[level](scrub(message));
        else log[level](scrub(message), scrubValue(fields) as Record<string, unknown>);
      } catch {
        // Nowhere left to report it.
      }
    };
  return { info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
