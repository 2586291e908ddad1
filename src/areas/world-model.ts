// What every world is made of: the areas' collections and seeders, handed to the world layer by whoever opens a
// world (src/start-sandbox.ts, src/seed-worker.ts, tests), since that layer knows no area.
import type { WorldModel } from '../world.js';
import { collectionDefs } from './collections.js';
import { seeders } from './seeders.js';

export const worldModel: WorldModel = { collections: collectionDefs, seeders };
