// The session's diagram, drawn from where its moves may lead (`SESSION_TARGETS` in src/core/session-moves.ts: data,
// which the table `MOVES` is typed from, so the compiler holds each move to it), into the comment above that data
// and into docs/session.md. `tsx scripts/session-diagram.ts --write` writes both;
// test/node/session-diagram.test.ts fails when either differs from the data.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { SESSION_TARGETS } from '../src/core/session-moves.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the diagram goes: the file, the text it follows, and the prefix of each of its lines there. */
export const DIAGRAM_PLACES = [
  { file: 'src/core/session-moves.ts', after: 'Where each move may lead, as data', prefix: ' * ' },
  { file: 'docs/session.md', after: '**States and moves**', prefix: '  ' },
] as const;

/** For each state, each event with the states its move may lead to, or null for an event the state ignores. */
export type Targets = Readonly<Record<string, Readonly<Record<string, readonly string[] | null>>>>;

/**
 * One line per state and destination: the events that lead there (`waiting ── frameReady, token ─▶ waiting | open`:
 * either, as the state says), then the events the state ignores.
 */
export function sessionDiagram(targets: Targets = SESSION_TARGETS): string {
  const rows: [string, string, string][] = [];
  for (const [state, row] of Object.entries(targets)) {
    const byTarget = new Map<string, string[]>();
    for (const [event, to] of Object.entries(row)) if (to) byTarget.set(to.join(' | '), [...(byTarget.get(to.join(' | ')) ?? []), event]);
    const lines: [string, string][] = [...byTarget].map(([to, events]) => [events.join(', '), to]);
    const ignored = Object.entries(row)
      .filter(([event, to]) => to === null && event !== '*')
      .map(([event]) => event);
    if ('*' in row) ignored.push(lines.length || ignored.length ? 'any other event' : 'every event');
    lines.forEach(([events, to], i) => rows.push([i ? '' : state, events, to]));
    if (ignored.length) rows.push([lines.length ? '' : state, `ignores ${ignored.join(', ')}`, '']);
  }
  const stateWidth = Math.max(...rows.map(([state]) => state.length));
  const eventsWidth = Math.max(...rows.filter(([, , to]) => to).map(([, events]) => events.length));
  return rows
    .map(([state, events, to]) =>
      `${state.padEnd(stateWidth)} ${to ? `── ${events} ${'─'.repeat(eventsWidth - events.length)}─▶ ${to}` : `   ${events}`}`.trimEnd(),
    )
    .join('\n');
}

/** `text` with the first ```text block after `after` holding `diagram`, each line prefixed with `prefix`. */
export function withDiagram(text: string, after: string, prefix: string, diagram: string): string {
  const anchor = text.indexOf(after);
  const open = `${prefix}\`\`\`text\n`;
  const start = text.indexOf(open, anchor);
  const end = text.indexOf(`${prefix}\`\`\``, start + open.length);
  if (anchor < 0 || start < 0 || end < 0) throw new Error(`No \`\`\`text block after "${after}".`);
  const body = diagram
    .split('\n')
    .map((line) => `${prefix}${line}`.trimEnd())
    .join('\n');
  return `${text.slice(0, start + open.length)}${body}\n${text.slice(end)}`;
}

if (process.argv.includes('--write')) {
  const diagram = sessionDiagram();
  for (const { file, after, prefix } of DIAGRAM_PLACES) {
    const path = `${root}${file}`;
    await writeFile(path, withDiagram(await readFile(path, 'utf8'), after, prefix, diagram));
  }
}
