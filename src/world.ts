// One world and its parts: its store (over the collections of the model it is given), its clock (Clock, below, with
// the ISO text of its instants, which the journal writes the same way) and the ids it gives new records (IdSequence,
// below), with the seeded bases workspaces read through.
import { hash, randomBytes } from 'node:crypto';
import { MemoryPersistence } from './store/store.js';
import type { Persistence, Snapshot } from './store/persistence.js';
import { type Seeder, seedStore } from './store/seed.js';
import { type CollectionDefs, type CollectionsOf, Store } from './store/store.js';
import { WorldResources } from './world-resources.js';

/**
 * Where the areas declare what a world's store holds, for the types only: src/areas/collections.ts adds
 * `defs: typeof collectionDefs` to this interface (declaration merging), so every layer that reads a world's store
 * gets its collections typed by record, and this layer imports no area. The values come in as a WorldModel.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the areas fill it in (see above).
export interface WorldTypes {}

/** The collections' definitions of a world, as the areas declare them (WorldTypes). */
export type WorldCollectionDefs = WorldTypes extends { defs: infer D extends CollectionDefs } ? D : CollectionDefs;

/** A world's store: the areas' collections. */
export type WorldStore = Store<WorldCollectionDefs>;

/**
 * What every world is made of, handed in by whoever opens one (start-sandbox, the seeding thread, tests): the areas'
 * collections and their seeders, in dependency order. The store layer below knows no area, and neither does this one.
 */
export interface WorldModel {
  collections: WorldCollectionDefs;
  seeders: readonly Seeder<CollectionsOf<WorldCollectionDefs>>[];
}

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
  /** What it is made of: the areas' collections and seeders, which its resets and its workspaces' bases seed from. */
  model: WorldModel;
}

/** An empty store of the model's collections. */
export const newWorldStore = (model: WorldModel, persistence: Persistence, seed: number): WorldStore => new Store(persistence, seed, model.collections);

/** A world's names for the seeded tokens: seeded token id -> the token that world accepts instead. */
export type SeedTokens = Readonly<Record<string, string>>;

/** The workspace id a world is addressed by in URLs (`?workspace=`); undefined for the default world. */
export const workspaceIdOf = (world: World): string | undefined => (world.tokenPrefix ? world.id : undefined);

// Seeding runs faker over every area: a sandbox does it once per seed, into a frozen base that every workspace reads
// through (a copy-on-write view) and that resets of the default world copy. The bases belong to one sandbox (its
// Worlds), not to the process: two sandboxes share none, and closing one lets its bases go.

/** The frozen seeded worlds of one sandbox, one per seed, each seeded on first use. */
export class SeededBases {
  private readonly bySeed = new Map<number, WorldStore>();

  /**
   * `built`: the seeded state of a seed made ahead (the build's, src/seeded-world-json.ts), loaded instead of
   * seeding when it has one; it must be what seeding this model gives.
   */
  constructor(
    private readonly model: WorldModel,
    private readonly built: (seed: number) => Snapshot | undefined = () => undefined,
  ) {}

  /** The seeded world of a seed, frozen: the shared base of every workspace. */
  of(seed: number): WorldStore {
    let base = this.bySeed.get(seed);
    if (!base) {
      base = newWorldStore(this.model, new MemoryPersistence(), seed);
      const built = this.built(seed);
      if (built) base.load(built);
      else seedStore(base, this.model.seeders);
      this.bySeed.set(seed, base.freeze());
    }
    return base;
  }

  /** The seeded state for a seed; callers get their own deep copy. */
  snapshot(seed: number): Snapshot {
    return structuredClone(this.of(seed).snapshot());
  }

  /** The seeds that have a base now. */
  seeds(): number[] {
    return [...this.bySeed.keys()];
  }

  /** Lets every base go: views made from one keep it as long as they live; the next use seeds again. */
  clear(): void {
    this.bySeed.clear();
  }
}

/**
 * Puts the seeded state (with this world's names for the seeded tokens) into a store, replacing what it held: a view
 * drops its changes; any other store copies the seed's base from `bases`.
 */
export function loadSeeded(store: WorldStore, bases: SeededBases, seedTokens?: SeedTokens): void {
  if (store.base) {
    store.discardChanges();
    renameSeededTokens(store, seedTokens);
    return;
  }
  const snapshot = bases.snapshot(store.seed);
  if (seedTokens) {
    const tokens = (snapshot.collections.tokens ?? []) as { id: string }[];
    // A seeded token the world has no name for is dropped rather than kept under its public seeded id.
    snapshot.collections.tokens = tokens.flatMap((t) => (seedTokens[t.id] ? [{ ...t, id: seedTokens[t.id] }] : []));
  }
  store.load(snapshot);
}

/**
 * A workspace's store: a copy-on-write view of a seeded base, whose only own records at the start are its
 * demo tokens (under the workspace's names), so an untouched workspace costs a few kilobytes.
 */
export function workspaceStore(base: WorldStore, seedTokens?: SeedTokens): WorldStore {
  const store = new Store(new MemoryPersistence(), base.seed, base.defs, base);
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
  model: WorldModel;
  persistence: Persistence;
  seed: number;
  reset?: boolean;
  clock?: Clock;
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
  const snapshot = opts.reset ? undefined : await opts.persistence.load();
  // A loaded world keeps the seed it was seeded with: its resets, its workspaces and its retailer follow that one.
  const store = newWorldStore(opts.model, opts.persistence, snapshot?.seed ?? opts.seed);
  let written = Promise.resolve();
  if (snapshot) store.load(snapshot);
  else {
    // The default world is seeded on its own (the seed tests compare two runs); workspaces and resets copy it.
    const seeded = await opts.seeded;
    if (seeded) store.load(seeded);
    else seedStore(store, opts.model.seeders);
    written = opts.persistence.replaceAll(store.snapshot());
    // Reported where the caller awaits it; until then a failure must not count as an unhandled rejection.
    written.catch(() => {});
  }
  const clock = opts.clock ?? new Clock();
  // A restart resumes at the world time it had: an expired token stays expired, a record is never from the future.
  if (snapshot?.clock) clock.advance(snapshot.clock.offset_ms);
  const world = {
    id: opts.id,
    store,
    clock,
    resources: new WorldResources(),
    tokenPrefix: '',
    ids: new IdSequence(),
    model: opts.model,
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
export async function resetWorld(world: World, bases: SeededBases): Promise<void> {
  loadSeeded(world.store, bases, world.seedTokens);
  world.resources.dispose();
  world.clock.reset();
  if (world.store.persistence.kind === 'file') await world.store.persistence.replaceAll(world.store.snapshot());
}

// The clock.
/**
 * The one source of time for a world. It runs with the wall clock plus an offset, so the sandbox clock control
 * can move time-dependent state (token expiry, scraping attempts, imports, series) forward without waiting.
 */
/**
 * How far ahead of the wall clock a world's clock may run in all: a hundred 366-day years. Every date the sandbox
 * shows stays a four-digit-year ISO date (a contract `date-time`), and the clock's arithmetic stays exact.
 */
export const MAX_CLOCK_OFFSET_DAYS = 36_600;
export const MAX_CLOCK_OFFSET_MS = MAX_CLOCK_OFFSET_DAYS * 86_400_000;

export class Clock {
  private offsetMs = 0;
  private readonly iso = new IsoTimes();

  constructor(private readonly wallClock: () => number = Date.now) {}

  now(): Date {
    return new Date(this.wallClock() + this.offsetMs);
  }

  nowIso(): string {
    return this.iso.of(this.now());
  }

  /** How far this clock runs ahead of the wall clock. */
  get offset(): number {
    return this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a clock only moves forward');
    if (!this.canAdvance(ms)) throw new RangeError(`a clock runs at most ${MAX_CLOCK_OFFSET_DAYS} days ahead`);
    this.offsetMs += ms;
  }

  /** The latest time this clock can ever show: the wall clock now plus the largest offset. */
  latestReach(): number {
    return this.wallClock() + MAX_CLOCK_OFFSET_MS;
  }

  /** Whether moving forward by `ms` keeps the clock within MAX_CLOCK_OFFSET_MS of the wall clock. */
  canAdvance(ms: number): boolean {
    return this.offsetMs + ms <= MAX_CLOCK_OFFSET_MS;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}

/**
 * Date.prototype.toISOString for a caller that formats many instants within the same second (a world's new
 * records, the journal's arrival times): the text up to the second is kept from the last call and the milliseconds
 * appended, the same text toISOString gives. toISOString is a call into the runtime, a visible share of a small
 * write.
 */
export class IsoTimes {
  private second = Number.NaN;
  private prefix = '';

  of(date: Date): string {
    const time = date.getTime();
    const second = Math.floor(time / 1000);
    // An invalid date (NaN) never equals the kept second: toISOString throws its RangeError.
    if (second !== this.second) {
      const text = date.toISOString();
      this.second = second;
      this.prefix = text.slice(0, -4);
      return text;
    }
    const ms = time - second * 1000;
    return `${this.prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }
}

// The ids.

/** The first hex digit of byte 8 once its top bits are 10 (RFC 9562 variant), by its two low bits. */
const VARIANT_DIGITS = '89ab';
/**
 * How many ids a sequence hands out under one salt (2^40, the contract's bound on a bundle's `ids.issued`): past it
 * the sequence draws a new salt, so its counter stays an exact integer and its ids never repeat.
 */
export const MAX_IDS_PER_SALT = 2 ** 40;
/** Where an id sequence stands: its salt (16 hex digits) and how many ids it has handed out. */
export interface IdSequenceState {
  salt: string;
  issued: number;
}

/**
 * The ids a world gives new records: UUIDs (version 4 layout) derived from a salt drawn when the world is made and
 * a counter. Two worlds never share a salt, so their ids do not meet; a world loaded from a bundle takes the
 * bundle's salt and counter, so it gives the next record the id the exported world would have given it.
 */
export class IdSequence {
  private salt: string;
  private issued: number;

  constructor(state?: IdSequenceState) {
    this.salt = state?.salt ?? randomBytes(8).toString('hex');
    this.issued = state?.issued ?? 0;
  }

  next(): string {
    if (this.issued >= MAX_IDS_PER_SALT) {
      this.salt = randomBytes(8).toString('hex');
      this.issued = 0;
    }
    // The digest as hex text, not a Buffer: Node makes a string of it much faster than a Buffer. The version nibble
    // (byte 6) becomes 4 and the variant bits (byte 8) 10, as setting them on the bytes would.
    const hex = hash('sha256', `${this.salt}:${this.issued++}`, 'hex');
    const variant = VARIANT_DIGITS[Number.parseInt(hex[16]!, 16) & 0x3]!;
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  get state(): IdSequenceState {
    return { salt: this.salt, issued: this.issued };
  }

  /** Continues where another sequence stood (a loaded bundle's). */
  restore(state: IdSequenceState): void {
    this.salt = state.salt;
    this.issued = state.issued;
  }
}
