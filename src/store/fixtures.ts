import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesDir } from '../paths.js';

const cache = new Map<string, unknown>();

/** A hand-picked fixture file (fixtures/<name>.json), read once; callers must not mutate what they get. */
export function loadFixture<T>(name: string): T {
  if (!cache.has(name)) cache.set(name, JSON.parse(readFileSync(join(fixturesDir, `${name}.json`), 'utf8')));
  return cache.get(name) as T;
}
