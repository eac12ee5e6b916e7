/** Runs `body` with console.warn recorded instead of printed: what it warned, one string per call. Node and browser tests. */
export function recordingWarnings(body: () => void): string[] {
  const warned: string[] = [];
  const original = console.warn;
  console.warn = (...args: unknown[]) => warned.push(args.join(' '));
  try {
    body();
  } finally {
    console.warn = original;
  }
  return warned;
}
