/** Summary statistics for a list of timings. */
export interface Summary {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
  mean: number;
}

/** Nearest-rank percentile (p in 0..100) of sorted values: no interpolation, so it is a value that was measured. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** Median (mean of the two middle values for an even count), p95, min, max and mean. */
export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const middle = Math.floor(n / 2);
  const median = n === 0 ? Number.NaN : n % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  const mean = n === 0 ? Number.NaN : sorted.reduce((sum, value) => sum + value, 0) / n;
  return { n, median, p95: percentile(sorted, 95), min: sorted[0] ?? Number.NaN, max: sorted[n - 1] ?? Number.NaN, mean };
}

/** Rounds for tables and JSON: timings to 0.1 ms, ratios to 0.01. */
export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
