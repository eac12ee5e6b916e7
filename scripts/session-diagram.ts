// The session's diagram, drawn from its table (`MOVES` in src/core/session-moves.ts, read as source: each move
// names the states it may lead to in its return type, which ships no byte), into the comment above the table and
// into docs/session.md. `tsx scripts/session-diagram.ts --write` writes both;
// test/node/session-diagram.test.ts fails when either differs from the table.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Where the diagram goes: the file, the text it follows, and the prefix of each of its lines there. */
export const DIAGRAM_PLACES = [
  { file: 'src/core/session-moves.ts', after: "The session's rules", prefix: ' * ' },
  { file: 'docs/session.md', after: '**States and moves**', prefix: '  ' },
] as const;

/** The table, read from its source: for each state, each event with the states its move may lead to, or null. */
export type TableText = Map<string, Map<string, string[] | null>>;

/**
 * Reads the table `MOVES` from session-moves.ts: each move's states are its return type, `To<'a' | 'b'>` (which the
 * compiler holds the move to), written on the move or on the function it names. Comments are left out.
 */
export async function readTable(): Promise<TableText> {
  const source = (await readFile(`${root}src/core/session-moves.ts`, 'utf8')).replace(/\/\/.*$/gm, '');
  const targets = (to: string) => [...to.matchAll(/'(\w+)'/g)].map((match) => match[1]!);
  // A move named by a constant or a function declared in the file: its return type there.
  const named = (name: string) => new RegExp(`(?:const|function) ${name}\\b[^\\n]*?\\): To<([^>]+)>`).exec(source)?.[1];
  const table = source.slice(source.indexOf('export const MOVES'), source.indexOf('\n};', source.indexOf('export const MOVES')));
  const result: TableText = new Map();
  for (const [, state, body] of table.matchAll(/^ {2}(\w+): \{([\s\S]*?)\}(?:,\s*$|,?\n(?= {2}\w|$))/gm)) {
    const row = new Map<string, string[] | null>();
    // A row's own keys: at the start of a line of a row written over several lines, after `{ ` or `, ` in a row of one.
    const key = body!.includes('\n') ? '^ {4}' : '(?:^ |, )';
    const entry = new RegExp(`${key}(\\w+|'\\*'): (null|\\([^)]*\\): To<([^>]+)>|\\w+(?=,|\\s*$))`, 'gm');
    for (const [, event, value, to] of body!.matchAll(entry)) {
      const declared = to ?? (value === 'null' ? undefined : named(value!));
      if (value !== 'null' && declared === undefined)
        throw new Error(`session-diagram: the move ${state}.${event} names no states (To<...>).`);
      row.set(event!.replace(/'/g, ''), declared === undefined ? null : targets(declared));
    }
    result.set(state!, row);
  }
  return result;
}

/**
 * One line per state and destination: the events that lead there (`waiting ── frameReady, token ─▶ waiting | open`:
 * either, as the state says), then the events the state ignores.
 */
export function sessionDiagram(table: TableText): string {
  const rows: [string, string, string][] = [];
  for (const [state, row] of table) {
    const byTarget = new Map<string, string[]>();
    for (const [event, to] of row) if (to) byTarget.set(to.join(' | '), [...(byTarget.get(to.join(' | ')) ?? []), event]);
    const lines: [string, string][] = [...byTarget].map(([to, events]) => [events.join(', '), to]);
    const ignored = [...row].filter(([event, to]) => to === null && event !== '*').map(([event]) => event);
    if (row.has('*')) ignored.push(lines.length || ignored.length ? 'any other event' : 'every event');
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
  const diagram = sessionDiagram(await readTable());
  for (const { file, after, prefix } of DIAGRAM_PLACES) {
    const path = `${root}${file}`;
    await writeFile(path, withDiagram(await readFile(path, 'utf8'), after, prefix, diagram));
  }
}
