// `npm run build` and `npm start` run this (from dist/) after transpiling (src/build/transpile.mjs): it seeds the default seed's world once and writes it as
// dist/seeded-world.json, which a start of that seed reads instead of seeding (src/seeded-world-json.ts).
import { worldModel } from '../areas/world-model.js';
import { DEFAULT_SEED } from '../config.js';
import { writeSeededWorldJson } from '../seeded-world-json.js';
import { seedStore } from '../store/seed.js';
import { MemoryPersistence } from '../store/store.js';
import { newWorldStore } from '../world.js';

const store = newWorldStore(worldModel, new MemoryPersistence(), DEFAULT_SEED);
seedStore(store, worldModel.seeders);
writeSeededWorldJson(new URL('../seed-worker.js', import.meta.url), store.snapshot());
