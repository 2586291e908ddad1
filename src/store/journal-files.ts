import { readdirSync, realpathSync } from 'node:fs';
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

/**
 * The data file's one name: through every symbolic link, of the file or of its folder. Two spellings of one file (a
 * link to it, a linked folder) would otherwise take two locks and let two processes write it, and a snapshot renamed
 * over a link would replace the link instead of the file it points at. A path that does not exist yet keeps its name.
 */
export function canonicalDataFile(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    try {
      return join(realpathSync(dirname(file)), basename(file));
    } catch {
      return file;
    }
  }
}
