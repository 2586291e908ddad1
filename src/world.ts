import { collectionDefs, type WorldStore } from './areas/collections.js';
import { seeders } from './areas/seeders.js';
import { Clock } from './clock.js';
import { IdSequence } from './store/id-sequence.js';
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
   * What the seeded demo tokens are called in this world (seeded id -> token); absent, they keep their seeded ids
   * (the default world). A workspace gives each its own random secret after the prefix (`ws_<id>.<secret>`): the
   * id, which routing and consent states show, grants nothing, and no token says anything about another.
   */
  seedTokens?: SeedTokens;
  /**
   * The ids the world gives new records (ctx.newId): derived from a per-world salt and a counter, so a world loaded
   * from a bundle goes on with the ids the exported one would have given. Absent, new records get random UUIDs.
   */
  ids?: IdSequence;
}

/** A world's names for the seeded tokens: seeded token id -> the token that world accepts instead. */
export type SeedTokens = Readonly<Record<string, string>>;

/** The workspace id a world is addressed by in URLs (`?workspace=`); undefined for the default world. */
export const workspaceIdOf = (world: World): string | undefined => (world.tokenPrefix ? world.id : undefined);

// Seeding runs faker over every area: it is done once per seed, into a frozen base that every workspace reads
// through (a copy-on-write view) and that resets of the default world copy.
const bases = new Map<number, WorldStore>();

/** An empty store of the areas' collections; over `base`, a copy-on-write view of it. */
export const newWorldStore = (persistence: Persistence, seed: number, base?: WorldStore): WorldStore => new Store(persistence, seed, collectionDefs, base);

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

/** Puts the seeded state (with this world's names for the seeded tokens) into a store, replacing what it held. */
export function loadSeeded(store: WorldStore, seedTokens?: SeedTokens): void {
  if (store.base) {
    store.discardChanges();
    renameSeededTokens(store, seedTokens);
    return;
  }
  const snapshot = seededSnapshot(store.seed);
  if (seedTokens) {
    const tokens = (snapshot.collections.tokens ?? []) as { id: string }[];
    // A seeded token the world has no name for is dropped rather than kept under its public seeded id.
    snapshot.collections.tokens = tokens.flatMap((t) => (seedTokens[t.id] ? [{ ...t, id: seedTokens[t.id] }] : []));
  }
  store.load(snapshot);
}

/**
 * A workspace's store: a copy-on-write view of the seeded base, whose only own records at the start are its
 * demo tokens (under the workspace's names), so an untouched workspace costs a few kilobytes.
 */
export function workspaceStore(seed: number, seedTokens?: SeedTokens): WorldStore {
  const store = newWorldStore(new MemoryPersistence(), seed, seededBase(seed));
  renameSeededTokens(store, seedTokens);
  return store;
}

// A view's tokens: each base token is replaced by the world's own, in the base's order. Written as a load is
// (restore records no change): a view's seeded state is never persisted, and every workspace creation runs this.
function renameSeededTokens(store: WorldStore, seedTokens: SeedTokens | undefined): void {
  if (!seedTokens) return;
  const tokens = store.collections.tokens;
  for (const token of tokens.all()) {
    tokens.restore(token.id, undefined);
    const id = seedTokens[token.id];
    if (id) tokens.restore(id, { ...token, id });
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
  seedTokens?: SeedTokens;
  /** The seeded snapshot of `seed` computed elsewhere (src/seeding-thread.ts); undefined: seeded here. */
  seeded?: Promise<Snapshot | undefined>;
}

/**
 * Opens a world on its persistence: loads what is there, or seeds a fresh one and starts persisting it, and answers
 * as soon as the world can serve. It can serve before its seeded state is on disk: the persistence acknowledges no
 * commit until then (JournalPersistence.replaceAll), and reads come from memory. A first start thereby listens
 * while the data file is written instead of after.
 */
export async function openWorldWriting(opts: OpenWorldOptions): Promise<OpenedWorld> {
  const store = newWorldStore(opts.persistence, opts.seed);
  const snapshot = opts.reset ? undefined : await opts.persistence.load();
  let written = Promise.resolve();
  if (snapshot) store.load(snapshot);
  else {
    // The default world is seeded on its own (the seed tests compare two runs); workspaces and resets copy it.
    const seeded = await opts.seeded;
    if (seeded) store.load(seeded);
    else seedStore(store, seeders);
    if (opts.seedTokens) loadSeeded(store, opts.seedTokens);
    written = opts.persistence.replaceAll(store.snapshot());
    // Reported where the caller awaits it; until then a failure must not count as an unhandled rejection.
    written.catch(() => {});
  }
  const world = {
    id: opts.id,
    store,
    clock: opts.clock ?? new Clock(),
    resources: new WorldResources(),
    tokenPrefix: opts.tokenPrefix ?? '',
    seedTokens: opts.seedTokens,
    ids: new IdSequence(),
  };
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
  loadSeeded(world.store, world.seedTokens);
  world.resources.dispose();
  world.clock.reset();
  if (world.store.persistence.kind === 'file') await world.store.persistence.replaceAll(world.store.snapshot());
}
