// The session's diagram, drawn from its table (`MOVES` in src/core/session-moves.ts), into the comment above
// the table and into docs/session.md. `tsx scripts/session-diagram.ts --write` writes both;
// test/node/session-diagram.test.ts fails when either differs from the table.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { MOVES } from '../src/core/session-moves.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the diagram goes: the file, the text it follows, and the prefix of each of its lines there. */
export const DIAGRAM_PLACES = [
  { file: 'src/core/session-moves.ts', after: 'The session\'s rules', prefix: ' * ' },
  { file: 'docs/session.md', after: '**States and moves**', prefix: '  ' },
] as const;

/**
 * One line per state and destination: the events that lead there (`waiting ── frameReady, token ─▶ waiting | open`:
 * either, as the state says), then the events the state ignores.
 */
export function sessionDiagram(): string {
  const rows: [string, string, string][] = [];
  for (const [state, row] of Object.entries(MOVES)) {
    const moves = Object.entries(row) as [string, { to: readonly string[] } | null][];
    const byTarget = new Map<string, string[]>();
    for (const [event, move] of moves) {
      if (move) byTarget.set(move.to.join(' | '), [...(byTarget.get(move.to.join(' | ')) ?? []), event]);
    }
    const lines: [string, string][] = [...byTarget].map(([to, events]) => [events.join(', '), to]);
    const ignored = moves.filter(([event, move]) => move === null && event !== '*').map(([event]) => event);
    if ('*' in row) ignored.push(lines.length || ignored.length ? 'any other event' : 'every event');
    lines.forEach(([events, to], i) => rows.push([i ? '' : state, events, to]));
    if (ignored.length) rows.push([lines.length ? '' : state, `ignores ${ignored.join(', ')}`, '']);
  }
  const stateWidth = Math.max(...rows.map(([state]) => state.length));
  const eventsWidth = Math.max(...rows.filter(([, , to]) => to).map(([, events]) => events.length));
  return rows
    .map(([state, events, to]) => `${state.padEnd(stateWidth)} ${to ? `── ${events} ${'─'.repeat(eventsWidth - events.length)}─▶ ${to}` : `   ${events}`}`.trimEnd())
    .join('\n');
}

/** `text` with the first ```text block after `after` holding `diagram`, each line prefixed with `prefix`. */
export function withDiagram(text: string, after: string, prefix: string, diagram: string): string {
  const anchor = text.indexOf(after);
  const open = `${prefix}\`\`\`text\n`;
  const start = text.indexOf(open, anchor);
  const end = text.indexOf(`${prefix}\`\`\``, start + open.length);
  if (anchor < 0 || start < 0 || end < 0) throw new Error(`No \`\`\`text block after "${after}".`);
  const body = diagram.split('\n').map((line) => `${prefix}${line}`.trimEnd()).join('\n');
  return `${text.slice(0, start + open.length)}${body}\n${text.slice(end)}`;
}

if (process.argv.includes('--write')) {
  for (const { file, after, prefix } of DIAGRAM_PLACES) {
    const path = `${root}${file}`;
    await writeFile(path, withDiagram(await readFile(path, 'utf8'), after, prefix, sessionDiagram()));
  }
}
