/**
 * Dates as the spec writes them: ISO 8601 in UTC with microseconds and a
 * `+00:00` offset for datetimes, `YYYY-MM-DD` for dates.
 */

/** `2025-07-08T12:00:00.123000+00:00`. */
export const serviceDateTime = (date: Date): string => date.toISOString().replace(/Z$/, '000+00:00');

/** `2025-07-08`. */
export const serviceDate = (date: Date): string => date.toISOString().slice(0, 10);
