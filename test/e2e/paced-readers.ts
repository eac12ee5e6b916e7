/**
 * Runs several paced-reader.ts processes against one service URL, started at
 * the same moment, and gathers what each read: for the multi-process read
 * test and the client-reads bench.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ReaderResult } from './paced-reader.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** What {@link runPacedReaders} needs. */
export interface PacedReadersOptions {
  processes: number;
  readsEach: number;
  baseUrl: string;
  apiSecret: string;
  accountId: string;
  platformId: string;
  /** `redis`: all share `redisRateLimiter`; `default`: each paces itself (the client's in-process limiter). */
  limiter: 'redis' | 'default';
  redisSocket?: string;
  perSecond?: number;
  keyPrefix?: string;
}

/** Every reader's result, and the time from `go` to the last one's end. */
export interface PacedReadersRun {
  results: ReaderResult[];
  elapsedMs: number;
}

/** Starts the readers, lets them go together, and waits for all of them (killing the rest if one fails). */
export async function runPacedReaders(options: PacedReadersOptions): Promise<PacedReadersRun> {
  const env: Record<string, string> = {
    BASE_URL: options.baseUrl,
    API_SECRET: options.apiSecret,
    ACCOUNT_ID: options.accountId,
    PLATFORM_ID: options.platformId,
    READS: String(options.readsEach),
    LIMITER: options.limiter,
    REDIS_SOCKET: options.redisSocket ?? '',
    PER_SECOND: String(options.perSecond ?? ''),
    KEY_PREFIX: options.keyPrefix ?? '',
  };
  const children: ChildProcess[] = [];
  try {
    const readers = Array.from({ length: options.processes }, () => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'test/e2e/paced-reader.ts'], {
        cwd: root,
        env: { ...process.env, ...env },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      children.push(child);
      const lines = createInterface({ input: child.stdout! });
      const exited = once(child, 'exit').then(([code]) => {
        throw new Error(`a reader exited (${code}) before its result`);
      });
      const next = (pattern: RegExp) =>
        Promise.race([
          new Promise<string>((resolve) => {
            const onLine = (line: string) => {
              const match = pattern.exec(line);
              if (!match) return;
              lines.off('line', onLine);
              resolve(match[1] ?? line);
            };
            lines.on('line', onLine);
          }),
          exited,
        ]);
      return { child, ready: next(/^ready$/), result: next(/^result (.*)$/) };
    });
    await Promise.all(readers.map((reader) => reader.ready));
    const started = performance.now();
    for (const reader of readers) reader.child.stdin!.write('go\n');
    const results = await Promise.all(readers.map(async (reader) => JSON.parse(await reader.result) as ReaderResult));
    return { results, elapsedMs: performance.now() - started };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
}
