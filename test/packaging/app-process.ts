// A scratch app of the packaging tests in a process of its own (tsx, a bare environment): started,
// waited for by its port or by a line it prints, stopped. Shared by servers.test.ts, reading-data.test.ts and runtimes.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

/** Resolves once something accepts connections on the port (each try waits for the connection's own outcome). */
export async function listening(port: number, child: ChildProcess, output: () => string): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if (child.exitCode !== null) throw new Error(`the app exited: ${output()}`);
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (accepted) return;
    await new Promise((resolve) => setTimeout(resolve, 100)); // between connection attempts, not a guess at readiness
  }
  throw new Error(`nothing listened on ${port}: ${output()}`);
}

/** A running app (`file` run by tsx in `cwd`, with PATH and `env` only): its process, and a promise for the next stdout line that matches. */
export function runApp(file: string, cwd: string, env: NodeJS.ProcessEnv) {
  return runCommand(process.execPath, ['--import', import.meta.resolve('tsx'), file], cwd, env);
}

/** A running command (another runtime: Deno, Bun) in `cwd`, with PATH and `env` only; as {@link runApp}. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) {
      const line = stdout.split('\n').find((candidate) => waiter.pattern.test(candidate));
      if (line) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return {
    child,
    output: () => `${stdout}${stderr}`,
    line: (pattern: RegExp) => new Promise<string>((resolve) => waiters.push({ pattern, resolve })),
    stop: () => child.kill('SIGKILL'),
  };
}
