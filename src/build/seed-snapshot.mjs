// The seeded world of the default seed, made beside a bundled server so that its first start loads it instead of
// seeding (src/seed-snapshot.ts). Run by `npm run build` for dist/server.js and by `prepare` (through
// start-sources.mjs) for npm start's bundle. It seeds with the TypeScript sources through tsx and keys the file by
// their hash, the same hash the bundle carries.
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { root } from './server-bundle-options.mjs';
import { sourcesHash } from './sources-hash.mjs';

/** Seeds the default seed's world and writes it beside `bundle` unless it is there with `key`; answers its file. */
export async function writeSeedSnapshot(bundle, key = sourcesHash()) {
  const { DEFAULT_SEED } = await tsImport('../config.ts', import.meta.url);
  const { seedSnapshotKey, seedSnapshotPath, writeSeededWorld } = await tsImport('../seed-snapshot.ts', import.meta.url);
  if (seedSnapshotKey(bundle, DEFAULT_SEED) === key) return seedSnapshotPath(bundle, DEFAULT_SEED);
  const { seededSnapshot } = await tsImport('../world.ts', import.meta.url);
  return writeSeededWorld(bundle, key, seededSnapshot(DEFAULT_SEED));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = await writeSeedSnapshot(process.argv[2]);
  process.stdout.write(`seeded world: ${relative(root, file)}\n`);
}
