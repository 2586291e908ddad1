// The seeded world of one seed, computed on a worker thread: the CLI (src/main.ts) starts this before it loads the
// server, so the seeding and the loading of the server's modules run side by side. The world is the same as
// seeding it in place (seedStore over the areas' seeders); the server loads the snapshot this posts.
import { parentPort, workerData } from 'node:worker_threads';
import { worldModel } from './areas/world-model.js';
import { MemoryPersistence } from './store/store.js';
import { seedStore } from './store/seed.js';
import { newWorldStore } from './world.js';

const store = newWorldStore(worldModel, new MemoryPersistence(), (workerData as { seed: number }).seed);
seedStore(store, worldModel.seeders);
parentPort!.postMessage(store.snapshot());
