import { readFile, writeFile } from 'node:fs/promises';

/** Thrown when the README lacks the markers of a generated section. */
export class MissingMarkersError extends Error {
  override name = 'MissingMarkersError';
}

const markers = (name: string) => [`<!-- ${name}:start (generated: do not edit by hand) -->`, `<!-- ${name}:end -->`] as const;

/** The README with the generated section `name` replaced by `content`. */
export function replaceSection(readme: string, name: string, content: string): string {
  const [start, end] = markers(name);
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new MissingMarkersError(`README.md needs the lines ${start} and ${end}.`);
  return `${readme.slice(0, from + start.length)}\n\n${content.trim()}\n\n${readme.slice(to)}`;
}

/**
 * Writes `content` into the README's section `name`, or with `check` only
 * compares: returns false when the README differs (stale), true otherwise.
 */
export async function updateReadmeSection(path: string, name: string, content: string, check: boolean): Promise<boolean> {
  const readme = await readFile(path, 'utf8');
  const next = replaceSection(readme, name, content);
  if (next === readme) return true;
  if (check) return false;
  await writeFile(path, next);
  return true;
}
