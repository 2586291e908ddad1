import { Clock } from '../../src/clock.js';
import { workspaceStore, type World } from '../../src/world.js';
import { WorldResources } from '../../src/world-resources.js';

/**
 * A fresh default world for one test: a copy-on-write view of the seed's frozen seeded base (as a workspace's store
 * is), so each test gets its own world without seeding one. It reads as a freshly seeded world, keeps its own
 * writes, and a reset takes it back to the base.
 */
export function freshWorld(seed: number): World {
  return { id: 'default', store: workspaceStore(seed), clock: new Clock(), resources: new WorldResources(), tokenPrefix: '' };
}
