import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Where the journal generations of a data file live: `<data>.journal.<generation>` beside it, so a user who
 * copies or deletes "the data file" sees every file that belongs to it in one directory listing.
 */
export function journalPath(dataFile: string, generation: number): string {
  return `${dataFile}.journal.${generation}`;
}

/** The generations that have a journal file on disk, ascending. */
export function journalGenerations(dataFile: string): number[] {
  const prefix = `${basename(dataFile)}.journal.`;
  let names: string[];
  try {
    names = readdirSync(dirname(dataFile));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

/** The temporary file a snapshot is written to before it is renamed over the data file (steno's naming). */
export function snapshotTempPath(dataFile: string): string {
  return join(dirname(dataFile), `.${basename(dataFile)}.tmp`);
}
