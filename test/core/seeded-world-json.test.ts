// The build writes the default seed's world as JSON (src/seeded-world-json.ts); a start of that seed reads it
// instead of seeding, only when it was made by exactly the worker script that would seed.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { worldModel } from '../../src/areas/world-model.js';
import { defaultConfig } from '../../src/config.js';
import { readSeededWorldJson, writeSeededWorldJson } from '../../src/seeded-world-json.js';
import { seedOnAThread } from '../../src/seeding-thread.js';
import { SeededBases } from '../../src/world.js';

const seed = defaultConfig.seed;
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A build folder (dist/src) holding a worker script that posts nothing: a start that ran it would seed nothing. */
function buildWithWorker(): URL {
  const dist = mkdtempSync(join(tmpdir(), 'seeded-world-'));
  folders.push(dist);
  const script = join(dist, 'src', 'seed-worker.mjs');
  mkdirSync(join(dist, 'src'));
  writeFileSync(script, 'process.exit(3);\n');
  return pathToFileURL(script);
}

describe("The build's seeded world", () => {
  it('When the build wrote the seeded world for this worker script, then a start of its seed reads that world, equal to seeding it', async () => {
    const script = buildWithWorker();
    const seeded = new SeededBases(worldModel).snapshot(seed);
    writeSeededWorldJson(script, seeded);
    const read = await seedOnAThread({ ...defaultConfig, store: 'memory', seed }, { script });
    expect(read).toEqual(seeded);
  });

  it('When the worker script changed after the build, or another seed starts, then the file is not read', async () => {
    const script = buildWithWorker();
    writeSeededWorldJson(script, new SeededBases(worldModel).snapshot(seed));
    expect(await readSeededWorldJson(script, 7)).toBeUndefined();
    writeFileSync(script, 'process.exit(4);\n');
    expect(await readSeededWorldJson(script, seed)).toBeUndefined();
    // Neither the file nor the (failing) worker gives a world: the start seeds in place.
    expect(await seedOnAThread({ ...defaultConfig, store: 'memory', seed }, { script })).toBeUndefined();
  });

  it("When a sandbox's seeded bases have the build's world of a seed, then a workspace's base is that world and no seeder runs", () => {
    const seeded = new SeededBases(worldModel).snapshot(seed);
    const seedersThatFail = {
      ...worldModel,
      seeders: [['products', () => expect.fail('seeded although the build had this seed')]] as typeof worldModel.seeders,
    };
    const bases = new SeededBases(seedersThatFail, (asked) => (asked === seed ? seeded : undefined));
    expect(bases.snapshot(seed)).toEqual(seeded);
    expect(() => bases.of(7)).toThrow(/seeded although/);
  });
});
