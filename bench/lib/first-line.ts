/**
 * A child process's first line on stdout (the benches' servers print their address there, as JSON), or a
 * rejection naming `what` if the child exits before it writes one.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export async function firstLine(child: ChildProcess, what: string): Promise<string> {
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`${what} exited with ${code}`))));
  const next = await Promise.race([lines.next(), exited]);
  // Its output may close before the exit event: that is the same failure, said the same way.
  if (next.done) throw new Error(`${what} exited without writing a line`);
  return next.value as string;
}
