// The default seed's world as JSON, made by the build next to dist/src (dist/seeded-world.json): a start that seeds
// that seed reads it instead of loading the faker and running every seeder. Seeding is a function of the seed and
// the seeding code alone (a fixed reference date, src/store/seed-context.ts), so the file names the seed and the
// SHA-256 of the built worker script that seeds (src/seed-worker.ts): that script imports its chunks by names
// esbuild derives from their contents, so a build whose seeding code differs has another digest, and the file is
// then ignored (the world is seeded on the thread, as without it).
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isDeepStrictEqual } from 'node:util';
import type { Snapshot } from './store/persistence.js';

interface SeededWorldJson {
  workerSha256: string;
  snapshot: Snapshot;
}

/** Where the seeded world of a worker script is kept: dist/seeded-world.json for dist/src/seed-worker.js. */
export const seededWorldJsonOf = (workerScript: URL): URL => new URL('../seeded-world.json', workerScript);

function workerDigest(workerScript: URL): string | undefined {
  try {
    return hash('sha256', readFileSync(workerScript), 'hex');
  } catch {
    return undefined;
  }
}

/** The snapshot of `seed` the build wrote for exactly this worker script, or undefined (none, another build or seed). */
export async function readSeededWorldJson(workerScript: URL, seed: number): Promise<Snapshot | undefined> {
  const digest = workerDigest(workerScript);
  if (digest === undefined) return undefined;
  return snapshotOf(await readFile(seededWorldJsonOf(workerScript), 'utf8').catch(() => undefined), digest, seed);
}

/** readSeededWorldJson, read at once (a seeded base is asked for in the middle of a request). */
export function readSeededWorldJsonSync(workerScript: URL, seed: number): Snapshot | undefined {
  const digest = workerDigest(workerScript);
  if (digest === undefined) return undefined;
  let text: string | undefined;
  try {
    text = readFileSync(seededWorldJsonOf(workerScript), 'utf8');
  } catch {
    return undefined;
  }
  return snapshotOf(text, digest, seed);
}

function snapshotOf(text: string | undefined, digest: string, seed: number): Snapshot | undefined {
  let stored: SeededWorldJson;
  try {
    stored = JSON.parse(text ?? '') as SeededWorldJson;
  } catch {
    return undefined;
  }
  return stored?.workerSha256 === digest && stored.snapshot?.seed === seed ? stored.snapshot : undefined;
}

/** Writes the seeded world of the worker script's build; one JSON cannot carry as it is refused, never written. */
export function writeSeededWorldJson(workerScript: URL, snapshot: Snapshot): void {
  const digest = workerDigest(workerScript);
  if (digest === undefined) throw new Error(`no worker script at ${workerScript.pathname}`);
  const json = JSON.stringify({ workerSha256: digest, snapshot } satisfies SeededWorldJson);
  if (!isDeepStrictEqual((JSON.parse(json) as SeededWorldJson).snapshot, snapshot)) {
    throw new Error('the seeded world does not survive JSON unchanged; dist/seeded-world.json not written');
  }
  writeFileSync(seededWorldJsonOf(workerScript), json);
}
