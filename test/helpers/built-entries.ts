// The entries test/helpers/build-entries.ts built for this run: a test that needs a sandbox in its own process
// spawns `node` on these, as `npm start` and the packed bin run dist/src.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inject } from 'vitest';

/** The built file of an entry under src/, e.g. `builtEntry('main')` or `builtEntry('cli/client-main')`. */
export function builtEntry(entry: 'main' | 'seed-worker' | 'cli/client-main'): string {
  return join(inject('builtSrc'), `${entry}.js`);
}

/** The same, as a URL (a worker thread's script). */
export const builtEntryUrl = (entry: 'main' | 'seed-worker' | 'cli/client-main'): URL => pathToFileURL(builtEntry(entry));
