/**
 * The part of autocannon 9's API the load bench uses (autocannon ships no
 * types, and this small surface is not worth a dependency on @types).
 */
declare module 'autocannon' {
  /** An hdr-histogram summary: min, max, average, stddev and percentiles (p50, p90, p99...). */
  export interface Histogram {
    min: number;
    max: number;
    average: number;
    stddev: number;
    p50: number;
    p90: number;
    p99: number;
    p99_9: number;
  }
  export interface Options {
    url: string;
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    amount?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    /** Requests to cycle through; `setupRequest` may rewrite each one (a new body per request). */
    requests?: RequestSpec[];
  }
  export interface RequestSpec {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: RequestSpec) => RequestSpec;
  }
  export interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    duration: number;
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
