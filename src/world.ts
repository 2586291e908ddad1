import { Clock } from './clock.js';
import { MemoryPersistence } from './store/persistence-memory.js';
import type { Persistence, Snapshot } from './store/persistence.js';
import { seedStore } from './store/seed.js';
import { Store } from './store/store.js';
import { disposeWorldResources } from './world-resources.js';

/** One isolated world: its store, its clock. The default world serves the demo tokens; workspaces add more. */
export interface World {
  id: string;
  store: Store;
  clock: Clock;
  /**
   * Starts every API token of this world: '' for the default world, 'ws_<id>.' for a workspace, so a token
   * names its world and authentication finds it with one map lookup.
   */
  tokenPrefix?: string;
}

/** The workspace id a world is addressed by in URLs (`?workspace=`); undefined for the default world. */
export const workspaceIdOf = (world: World): string | undefined => (world.tokenPrefix ? world.id : undefined);

// Seeding a world costs most of a second; a workspace (and a reset) loads a copy of the seeded snapshot instead.
const seeded = new Map<number, Snapshot>();

/** The seeded state for a seed, computed once per process; callers get their own deep copy. */
export function seededSnapshot(seed: number): Snapshot {
  let snapshot = seeded.get(seed);
  if (!snapshot) {
    const scratch = new Store(new MemoryPersistence(), seed);
    seedStore(scratch);
    snapshot = scratch.snapshot();
    seeded.set(seed, snapshot);
  }
  return structuredClone(snapshot);
}

/** Puts the seeded state (with this world's token prefix) into a store, replacing what it held. */
export function loadSeeded(store: Store, tokenPrefix = ''): void {
  const snapshot = seededSnapshot(store.seed);
  if (tokenPrefix) {
    const tokens = (snapshot.collections.tokens ?? []) as { id: string }[];
    snapshot.collections.tokens = tokens.map((t) => ({ ...t, id: tokenPrefix + t.id }));
  }
  store.load(snapshot);
}

/** Opens a world on its persistence: loads what is there, or seeds (and persists) a fresh one. */
export async function openWorld(opts: {
  id: string;
  persistence: Persistence;
  seed: number;
  reset?: boolean;
  clock?: Clock;
  tokenPrefix?: string;
}): Promise<World> {
  const store = new Store(opts.persistence, opts.seed);
  const snapshot = opts.reset ? undefined : await opts.persistence.load();
  if (snapshot) store.load(snapshot);
  else {
    // The default world is seeded for real (the seed tests compare two runs); workspaces and resets copy it.
    seedStore(store);
    if (opts.tokenPrefix) loadSeeded(store, opts.tokenPrefix);
    await opts.persistence.replaceAll(store.snapshot());
  }
  return { id: opts.id, store, clock: opts.clock ?? new Clock(), tokenPrefix: opts.tokenPrefix ?? '' };
}

/**
 * Throws away every change, reseeds and persists the seeded state; the clock goes back to the wall clock and the
 * state kept outside the store (retailer rate buckets, uploaded files) is dropped with it.
 */
export async function resetWorld(world: World): Promise<void> {
  loadSeeded(world.store, world.tokenPrefix);
  disposeWorldResources(world.store.collections);
  world.clock.reset();
  await world.store.persistence.replaceAll(world.store.snapshot());
}
