import { Clock } from './clock.js';
import type { Persistence } from './store/persistence.js';
import { seedStore } from './store/seed.js';
import { Store } from './store/store.js';

/** One isolated world: its store, its clock. The default world serves the demo tokens; workspaces add more. */
export interface World {
  id: string;
  store: Store;
  clock: Clock;
}

/** Opens a world on its persistence: loads what is there, or seeds (and persists) a fresh one. */
export async function openWorld(opts: { id: string; persistence: Persistence; seed: number; reset?: boolean; clock?: Clock }): Promise<World> {
  const store = new Store(opts.persistence, opts.seed);
  const snapshot = opts.reset ? undefined : await opts.persistence.load();
  if (snapshot) store.load(snapshot);
  else {
    seedStore(store);
    await opts.persistence.replaceAll(store.snapshot());
  }
  return { id: opts.id, store, clock: opts.clock ?? new Clock() };
}

/** Throws away every change, reseeds and persists the seeded state; the clock goes back to the wall clock. */
export async function resetWorld(world: World): Promise<void> {
  world.store.load({ format: 1, seed: world.store.seed, collections: {} });
  seedStore(world.store);
  world.clock.reset();
  await world.store.persistence.replaceAll(world.store.snapshot());
}
