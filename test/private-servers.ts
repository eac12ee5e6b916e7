/**
 * Private Redis and PostgreSQL servers for tests and benchmarks: Debian's
 * `redis-server` and `postgresql`, each in a temporary folder, listening on a
 * unix socket there only (no TCP port to race other helpers for), stopped and
 * removed by `stop()`. They can be stopped and started again on the same
 * data, for tests of a store that goes away mid-run.
 *
 * The trap: PostgreSQL's `initdb` and server refuse to run as root
 * ("initdb: error: cannot be run as root"). As root, the folder is given to
 * the `postgres` user and both run through `runuser -u postgres --`.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A private server: where to connect, and how to stop (and restart) it. */
export interface PrivateServer {
  /** The temporary folder holding its socket and data. */
  readonly dir: string;
  /** Stops it, keeping its data, so that `start()` brings it back. */
  pause(): Promise<void>;
  /** Starts it again after `pause()`. */
  start(): Promise<void>;
  /** Stops it for good and removes its folder. Idempotent. */
  stop(): Promise<void>;
}

/** A private Redis: connect with `createClient({ socket: { path: socketPath } })`. */
export interface PrivateRedis extends PrivateServer {
  readonly socketPath: string;
}

/** Whether Debian's redis-server and PostgreSQL are installed (`.ci/run` installs them). */
export const haveRedis = () => existsSync('/usr/bin/redis-server');
export const havePostgres = () => postgresBin() !== null;

/** Starts Redis on a unix socket in a new temporary folder. */
export async function startRedis(): Promise<PrivateRedis> {
  const dir = await mkdtemp(join(tmpdir(), 'payroll-link-redis-'));
  const socketPath = join(dir, 'redis.sock');
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn('redis-server', ['--port', '0', '--unixsocket', socketPath, '--dir', dir, '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (/ready to accept connections/i.test(output)) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
      started.once('error', reject);
    });
    started.stdout!.resume();
    started.stderr!.resume();
  };
  const pause = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = once(running, 'exit');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  stopOnExit(() => (child as ChildProcess | null)?.kill('SIGKILL'));
  return {
    dir,
    socketPath,
    pause,
    start,
    async stop() {
      await pause();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A private PostgreSQL: connect with `new pg.Pool({ host: dir, user: 'postgres', database: 'postgres' })`. */
export interface PrivatePostgres extends PrivateServer {
  /** The pg connection settings. */
  readonly connection: { host: string; user: string; database: string };
}

function postgresBin(): string | null {
  if (!existsSync('/usr/lib/postgresql')) return null;
  const versions = readdirSync('/usr/lib/postgresql').filter((name) => existsSync(`/usr/lib/postgresql/${name}/bin/initdb`));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? null : `/usr/lib/postgresql/${versions[0]}/bin`;
}

/**
 * Starts PostgreSQL in a new temporary folder, listening on a unix socket
 * there and on no TCP address. Durability is turned off (fsync,
 * synchronous_commit): these are throw-away test databases.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (bin === null) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = await mkdtemp(join(tmpdir(), 'payroll-link-pg-'));
  const asRoot = process.getuid?.() === 0;
  // initdb and postgres refuse root: the folder goes to the postgres user, who runs both.
  // cwd: the postgres user may not enter the caller's folder, and initdb complains where it cannot.
  const asPostgres = (command: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args], { cwd: dir }) : run(command, args, { cwd: dir });
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  await chmod(dir, 0o700);
  const data = join(dir, 'data');
  await asPostgres(`${bin}/initdb`, ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '--no-instructions']);
  const settings = [
    `-k ${dir}`,
    "-c listen_addresses=''",
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ];
  const start = async () => {
    await asPostgres(`${bin}/pg_ctl`, ['-D', data, '-o', settings.join(' '), '-l', join(dir, 'log'), '-w', 'start']);
  };
  const pause = async () => {
    if (!existsSync(join(data, 'postmaster.pid'))) return;
    await asPostgres(`${bin}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']);
  };
  await start();
  stopOnExit(() => {
    // Synchronous, from an exit handler: the server must not outlive a test run that failed.
    if (existsSync(join(data, 'postmaster.pid'))) {
      spawn(
        asRoot ? 'runuser' : `${bin}/pg_ctl`,
        [...(asRoot ? ['-u', 'postgres', '--', `${bin}/pg_ctl`] : []), '-D', data, '-m', 'immediate', 'stop'],
        {
          stdio: 'ignore',
          detached: true,
        },
      ).unref();
    }
  });
  let stopped = false;
  return {
    dir,
    connection: { host: dir, user: 'postgres', database: 'postgres' },
    pause,
    start,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pause();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Kills what a test started when the process exits without stopping it (a failed assertion, Ctrl-C). */
function stopOnExit(kill: () => void): void {
  process.once('exit', kill);
}
