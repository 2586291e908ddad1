import { collectionDefs, type WorldStore } from './areas/collections.js';
import { seeders } from './areas/seeders.js';
import { Clock } from './clock.js';
import { MemoryPersistence } from './store/persistence-memory.js';
import type { Persistence, Snapshot } from './store/persistence.js';
import { seedStore } from './store/seed.js';
import { Store } from './store/store.js';
import { WorldResources } from './world-resources.js';

/** One isolated world: its store, its clock. The default world serves the demo tokens; workspaces add more. */
export interface World {
  id: string;
  store: WorldStore;
  clock: Clock;
  /** What the world keeps beside its store (the simulated retailer, uploaded files). */
  resources: WorldResources;
  /**
   * Starts every API token of this world: '' for the default world, 'ws_<id>.' for a workspace, so a token
   * names its world and authentication finds it with one map lookup.
   */
  tokenPrefix?: string;
  /**
   * Starts the world's seeded demo tokens: the token prefix plus a random secret in a workspace
   * (`ws_<id>.<secret>.demo-owner-token`), so the id, which routing and consent states show, grants nothing.
   */
  seedTokenPrefix?: string;
}

/** The workspace id a world is addressed by in URLs (`?workspace=`); undefined for the default world. */
export const workspaceIdOf = (world: World): string | undefined => (world.tokenPrefix ? world.id : undefined);

// Seeding runs faker over every area: it is done once per seed, into a frozen base that every workspace reads
// through (a copy-on-write view) and that resets of the default world copy.
const bases = new Map<number, WorldStore>();

/** An empty store of the areas' collections; over `base`, a copy-on-write view of it. */
export const newWorldStore = (persistence: Persistence, seed: number, base?: WorldStore): WorldStore =>
  new Store(persistence, seed, collectionDefs, base);

/** The seeded world of a seed, computed once per process and frozen: the shared base of every workspace. */
export function seededBase(seed: number): WorldStore {
  let base = bases.get(seed);
  if (!base) {
    base = newWorldStore(new MemoryPersistence(), seed);
    seedStore(base, seeders);
    bases.set(seed, base.freeze());
  }
  return base;
}

/** The seeded state for a seed; callers get their own deep copy. */
export function seededSnapshot(seed: number): Snapshot {
  return structuredClone(seededBase(seed).snapshot());
}

/** Puts the seeded state (with this world's token prefix) into a store, replacing what it held. */
export function loadSeeded(store: WorldStore, tokenPrefix = ''): void {
  if (store.base) {
    store.discardChanges();
    prefixTokens(store, tokenPrefix);
    return;
  }
  const snapshot = seededSnapshot(store.seed);
  if (tokenPrefix) {
    const tokens = (snapshot.collections.tokens ?? []) as { id: string }[];
    snapshot.collections.tokens = tokens.map((t) => ({ ...t, id: tokenPrefix + t.id }));
  }
  store.load(snapshot);
}

/**
 * A workspace's store: a copy-on-write view of the seeded base, whose only own records at the start are its
 * demo tokens (renamed with its prefix), so an untouched workspace costs a few kilobytes.
 */
export function workspaceStore(seed: number, tokenPrefix: string): WorldStore {
  const store = newWorldStore(new MemoryPersistence(), seed, seededBase(seed));
  prefixTokens(store, tokenPrefix);
  return store;
}

// A view's tokens: each base token is replaced by its prefixed copy, in the base's order. Written as a load is
// (restore records no change): a view's seeded state is never persisted, and every workspace creation runs this.
function prefixTokens(store: WorldStore, tokenPrefix: string): void {
  if (!tokenPrefix) return;
  const tokens = store.collections.tokens;
  for (const token of tokens.all()) {
    tokens.restore(token.id, undefined);
    tokens.restore(tokenPrefix + token.id, { ...token, id: tokenPrefix + token.id });
  }
}

/** What opening a world answers: the world, and the write of a fresh world's seeded state to its persistence. */
export interface OpenedWorld {
  world: World;
  /** Settles once a fresh world's seeded state is persisted (at once for a loaded one); rejects with why it was not. */
  written: Promise<void>;
}

interface OpenWorldOptions {
  id: string;
  persistence: Persistence;
  seed: number;
  reset?: boolean;
  clock?: Clock;
  tokenPrefix?: string;
}

/**
 * Opens a world on its persistence: loads what is there, or seeds a fresh one and starts persisting it, and answers
 * as soon as the world can serve. It can serve before its seeded state is on disk: the persistence acknowledges no
 * commit until then (JournalPersistence.replaceAll), and reads come from memory. A first start thereby listens
 * while the data file is written (about 15 ms of it) instead of after.
 */
export async function openWorldWriting(opts: OpenWorldOptions): Promise<OpenedWorld> {
  const store = newWorldStore(opts.persistence, opts.seed);
  const snapshot = opts.reset ? undefined : await opts.persistence.load();
  let written = Promise.resolve();
  if (snapshot) store.load(snapshot);
  else {
    // The default world is seeded on its own (the seed tests compare two runs); workspaces and resets copy it.
    seedStore(store, seeders);
    if (opts.tokenPrefix) loadSeeded(store, opts.tokenPrefix);
    written = opts.persistence.replaceAll(store.snapshot());
    // Reported where the caller awaits it; until then a failure must not count as an unhandled rejection.
    written.catch(() => {});
  }
  const world = { id: opts.id, store, clock: opts.clock ?? new Clock(), resources: new WorldResources(), tokenPrefix: opts.tokenPrefix ?? '' };
  return { world, written };
}

/** Opens a world on its persistence: loads what is there, or seeds (and persists) a fresh one. */
export async function openWorld(opts: OpenWorldOptions): Promise<World> {
  const { world, written } = await openWorldWriting(opts);
  await written;
  return world;
}

/**
 * Throws away every change, reseeds and persists the seeded state; the clock goes back to the wall clock and the
 * state kept outside the store (retailer rate buckets, uploaded files) is dropped with it.
 */
export async function resetWorld(world: World): Promise<void> {
  loadSeeded(world.store, world.seedTokenPrefix ?? world.tokenPrefix);
  world.resources.dispose();
  world.clock.reset();
  if (world.store.persistence.kind === 'file') await world.store.persistence.replaceAll(world.store.snapshot());
}
