// The CLI seeds a new world on a worker thread while the server loads (src/seeding-thread.ts): the world it loads
// from there is the one seeding in place gives, record for record.
import { describe, expect, it } from 'vitest';
import { seedOnAThread } from '../../src/seeding-thread.js';
import { SeededBases } from '../../src/world.js';
import { defaultConfig } from '../../src/config.js';
import { worldModel } from '../../src/areas/world-model.js';
import { builtEntryUrl } from '../helpers/built-entries.js';

/** The seeded state seeding in place gives, for comparison. */
const seededSnapshot = (seed: number) => new SeededBases(worldModel).snapshot(seed);

// The worker built as dist/src holds it (a thread starts on JavaScript, as the CLI's does).
const worker = { script: builtEntryUrl('seed-worker'), execArgv: [] };

describe('The world seeded on a worker thread', () => {
  it('When a memory store starts, then the snapshot seeded on the thread equals the one seeded in place', async () => {
    for (const seed of [defaultConfig.seed, 7]) {
      const seeded = await seedOnAThread({ ...defaultConfig, store: 'memory', seed }, worker);
      expect(seeded, `seed ${seed}`).toEqual(seededSnapshot(seed));
    }
  }, 120_000);

  it('When the data file exists and is kept, then nothing is seeded on a thread', () => {
    expect(seedOnAThread({ ...defaultConfig, store: 'file', dataFile: 'package.json', reset: false }, worker)).toBeUndefined();
  });

  it('When the data file exists but --reset is given, then the world is seeded on a thread', async () => {
    const seeded = await seedOnAThread({ ...defaultConfig, store: 'file', dataFile: 'package.json', reset: true }, worker);
    expect(seeded).toEqual(seededSnapshot(defaultConfig.seed));
  }, 120_000);
});
