import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '../paths.js';

/** A hand-picked fixture file (fixtures/<name>.json), read on each call: only seeding reads them, once per seed. */
export function loadFixture<T>(name: string): T {
  return JSON.parse(readFileSync(join(fixturesDir, `${name}.json`), 'utf8')) as T;
}
