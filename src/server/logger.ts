import { escapeControls } from './handler/escape-controls.js';
import { methodsSchema } from './handler/function-schema.js';

/**
 * Where the token and webhook handlers write what happened. `console` fits, and so do most structured loggers (pino,
 * winston) through a two-line wrapper: each call is one line of text plus an object of fields.
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
 * Wraps `log`, the one way every handler writes: none of the given secrets can reach it, whatever an upstream
 * message happens to echo (a second line of defence: the callers never log a secret on purpose); control
 * characters are escaped, in the message and in every string (and key) of the fields, so that a line stays one
 * line; and a logger that throws is ignored.
 */
export function redactingLogger(log: Logger, secrets: readonly string[]): Logger {
  const hidden = secrets.filter((secret) => secret.length > 0);
  // Secrets first: one that held a control character would no longer match once escaped.
  const clean = (text: string) => escapeControls(hidden.reduce((acc, secret) => acc.replaceAll(secret, REDACTED), text));
  const cleanValue = (value: unknown): unknown => {
    if (typeof value === 'string') return clean(value);
    if (Array.isArray(value)) return value.map(cleanValue);
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [clean(key), cleanValue(inner)]));
    }
    return value;
  };
  const wrap =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      // A logger that throws (a full disk, a closed transport) must not turn an answer into a rejected promise.
      try {
        if (fields === undefined) log[level](clean(message));
        else log[level](clean(message), cleanValue(fields) as Record<string, unknown>);
      } catch {
        // Nowhere left to report it.
      }
    };
  return { info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}
