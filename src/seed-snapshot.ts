import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Snapshot } from './store/persistence.js';
import { writeFileWhole } from './write-whole.js';

// Seeding runs faker over every area and is the largest part of a first start. A bundled server (dist/server.cjs,
// npm start's bundle) has the seeded world of the default seed made beside it by the build (src/build/seed-snapshot.mjs)
// and loads it instead. The bundle carries the hash of the sources it was made from (SANDBOX_SOURCES_KEY, an esbuild
// define) and the file carries the hash of the sources that seeded it: a world seeded by other code is never loaded.
// Run from the sources (tsx, vitest) there is no key, and every world is seeded for real.
declare const SANDBOX_SOURCES_KEY: string | undefined;

interface SeedSnapshotFile {
  key: string;
  snapshot: Snapshot;
}

/** The seeded world beside `bundle` for `seed`: `dist/server.cjs` holds it in `dist/server.seed-20240901.json`. */
export function seedSnapshotPath(bundle: string, seed: number): string {
  return `${bundle.replace(/\.[cm]?js$/, '')}.seed-${seed}.json`;
}

function readSeedSnapshot(bundle: string, seed: number): SeedSnapshotFile | undefined {
  try {
    return JSON.parse(readFileSync(seedSnapshotPath(bundle, seed), 'utf8')) as SeedSnapshotFile;
  } catch {
    return undefined;
  }
}

/** The sources key of the seeded world beside `bundle`, if there is one (the build skips a world it already has). */
export const seedSnapshotKey = (bundle: string, seed: number): string | undefined => readSeedSnapshot(bundle, seed)?.key;

/** The seeded world of `seed` shipped with the running bundle, if made by the same sources; undefined otherwise. */
export function shippedSeededWorld(seed: number): Snapshot | undefined {
  if (typeof SANDBOX_SOURCES_KEY !== 'string') return undefined;
  const file = readSeedSnapshot(fileURLToPath(import.meta.url), seed);
  return file?.key === SANDBOX_SOURCES_KEY && file.snapshot?.seed === seed ? file.snapshot : undefined;
}

/** Writes the seeded world of a seed beside `bundle`, keyed by the hash of the sources that seeded it (the build). */
export function writeSeededWorld(bundle: string, key: string, snapshot: Snapshot): string {
  const file = seedSnapshotPath(bundle, snapshot.seed);
  writeFileWhole(file, JSON.stringify({ key, snapshot } satisfies SeedSnapshotFile));
  return file;
}
