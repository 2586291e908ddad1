import { Clock } from '../../src/clock.js';
import { SeededBases, workspaceStore, type World } from '../../src/world.js';
import { WorldResources } from '../../src/world-resources.js';
import { worldModel } from '../../src/areas/world-model.js';

/**
 * The frozen seeded bases of one test file's sandboxes (vitest gives each file its own module scope): every test's
 * world is a view of one, so a test does not seed a world of its own, and no test can change a base.
 */
export const testBases = new SeededBases(worldModel);

/**
 * A fresh default world for one test: a copy-on-write view of the seed's frozen seeded base (as a workspace's store
 * is), so each test gets its own world without seeding one. It reads as a freshly seeded world, keeps its own
 * writes, and a reset takes it back to the base.
 */
export function freshWorld(seed: number): World {
  return { id: 'default', store: workspaceStore(testBases.of(seed)), clock: new Clock(), resources: new WorldResources(), tokenPrefix: '', model: worldModel };
}
