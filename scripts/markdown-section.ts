import { readFile, writeFile } from 'node:fs/promises';

/** Thrown when a markdown page lacks the markers of a generated section. */
export class MissingMarkersError extends Error {
  override name = 'MissingMarkersError';
}

const markers = (name: string) => [`<!-- ${name}:start (generated: do not edit by hand) -->`, `<!-- ${name}:end -->`] as const;

/** The page's text with the generated section `name` replaced by `content`. */
export function replaceSection(text: string, name: string, content: string): string {
  const [start, end] = markers(name);
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new MissingMarkersError(`The page needs the lines ${start} and ${end}.`);
  return `${text.slice(0, from + start.length)}\n\n${content.trim()}\n\n${text.slice(to)}`;
}

/**
 * Writes `content` into the section `name` of the markdown page at `path`, or with `check`
 * only compares: returns false when the page differs (stale), true otherwise.
 */
export async function updateMarkdownSection(path: string, name: string, content: string, check: boolean): Promise<boolean> {
  const readme = await readFile(path, 'utf8');
  const next = replaceSection(readme, name, content);
  if (next === readme) return true;
  if (check) return false;
  await writeFile(path, next);
  return true;
}
