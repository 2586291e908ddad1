import { Collection, type ChangeSink, type CollectionDef } from './collection.js';
import type { Change, Persistence, Snapshot } from './persistence.js';
import { passesRecordQuota, QuotaExceeded } from './quota-exceeded.js';

/** The collections a store holds, by name (what defineCollection returns); their order is the data file's. */
export type CollectionDefs = Record<string, { readonly __record?: { id: string } }>;

type RecordOf<D> = D extends CollectionDef<infer T> ? T : never;

/** The collections of a store of these definitions, by name, each typed by its records. */
export type CollectionsOf<D extends CollectionDefs> = { [K in keyof D]: Collection<RecordOf<D[K]>> };

/** Where a store stands (Store.stamp): what an answer made from it is compared with later. */
export interface StoreStamp {
  readonly version: number;
  readonly attributed: number;
}

interface PendingChange {
  collection: string;
  id: string;
  before: unknown;
  after: unknown;
}

/**
 * The state of one world: its collections, the request-scoped transaction that makes a failed request leave no
 * trace, and the persistence that makes a successful one durable before it is answered.
 */
export class Store<D extends CollectionDefs = CollectionDefs> implements ChangeSink {
  readonly collections: CollectionsOf<D>;
  /** Bumped on every committed change: lets caches of rendered answers know they are stale. */
  version = 0;
  /**
   * How many of the bumps of `version` were a transaction's, whose collections `changedAt` names. Any other bump (a
   * load, a reset, a bundle applied) may have changed every collection.
   */
  private attributed = 0;
  /** Per collection, the version at which a transaction last changed it. */
  private readonly changedAt = new Map<string, number>();
  /** The collections read while readsDuring runs. */
  private reads: Set<string> | undefined;
  /** In a copy-on-write view, the records it added that it still holds (what a record quota counts). */
  addedRecords = 0;
  private pending: PendingChange[] = [];
  private inTransaction = false;
  /** Set when this store is frozen: the class of its views' collections, accessors shared by every view. */
  private viewClass: (new (store: Store) => ViewCollections) | undefined;

  /**
   * With a `base` (a frozen store of the same seed), this store is a copy-on-write view of it: it keeps only what
   * it changed, and `discardChanges` takes it back to the base.
   */
  constructor(
    readonly persistence: Persistence,
    readonly seed: number,
    readonly defs: D,
    readonly base?: Store<D>,
  ) {
    if (base) {
      // Its collections are made on first use, through the accessors the base made once when it was frozen.
      if (!base.viewClass) throw new Error('a copy-on-write view needs a frozen base');
      this.collections = new base.viewClass(this) as unknown as CollectionsOf<D>;
      return;
    }
    const collections: Record<string, Collection<{ id: string }>> = {};
    for (const name of Object.keys(defs)) collections[name] = this.makeCollection(name);
    this.collections = collections as unknown as CollectionsOf<D>;
  }

  /** A collection of this store: over the base's when this store is a view. */
  makeCollection(name: string): Collection<{ id: string }> {
    const def = this.defs[name] as unknown as CollectionDef<{ id: string }>;
    return new Collection(name, def, this, this.base?.collection(name));
  }

  read(collection: string): void {
    this.reads?.add(collection);
  }

  /** Runs `fn` and names the collections it read, synchronously (what it reads after an await is not seen). */
  readsDuring<R>(fn: () => R): { result: R; reads: string[] } {
    const outer = this.reads;
    const reads = new Set<string>();
    this.reads = reads;
    try {
      return { result: fn(), reads: [...reads] };
    } finally {
      if (outer) for (const name of reads) outer.add(name);
      this.reads = outer;
    }
  }

  /** Where the store stands now. */
  stamp(): StoreStamp {
    return { version: this.version, attributed: this.attributed };
  }

  /**
   * Whether none of `collections` changed since `stamp`: every change since was a transaction's, and none of those
   * touched any of them.
   */
  unchangedSince(stamp: StoreStamp, collections: readonly string[]): boolean {
    if (this.version === stamp.version) return true;
    if (this.version - stamp.version !== this.attributed - stamp.attributed) return false;
    for (const name of collections) if ((this.changedAt.get(name) ?? -1) > stamp.version) return false;
    return true;
  }

  record(collection: string, id: string, before: unknown, after: unknown): void {
    if (!this.inTransaction) throw new Error(`${collection} changed outside a transaction`);
    this.pending.push({ collection, id, before, after });
  }

  /**
   * Runs `fn` as one transaction: its changes are undone if it throws, and made durable before the returned
   * promise resolves. `fn` must be synchronous, so concurrent requests never interleave inside a transaction.
   * With `maxAddedRecords` (a view's record quota), a transaction that would leave the view holding more records
   * of its own is undone and throws QuotaExceeded; one that adds none is never refused.
   */
  async transact<R>(fn: () => R, maxAddedRecords?: number): Promise<R> {
    const { result, changes } = this.apply(fn, maxAddedRecords);
    if (changes.length > 0) await this.persistence.commit(changes, () => this.snapshot());
    return result;
  }

  /** Runs `fn` with rollback on failure but persists nothing itself: for seeding, which persists a whole snapshot. */
  apply<R>(fn: () => R, maxAddedRecords = Infinity): { result: R; changes: Change[] } {
    if (this.inTransaction) throw new Error('transactions do not nest');
    this.inTransaction = true;
    this.pending = [];
    try {
      const result = fn();
      if (result instanceof Promise) throw new Error('a transaction body must be synchronous');
      const added = this.addedBy(this.pending);
      if (passesRecordQuota(this.addedRecords, added, maxAddedRecords)) throw new QuotaExceeded('records', maxAddedRecords);
      this.addedRecords += added;
      const changes = this.pending.map(toChange);
      if (changes.length > 0) {
        this.version++;
        this.attributed++;
        for (const change of changes) this.changedAt.set(change.c, this.version);
      }
      return { result, changes };
    } catch (error) {
      this.rollback();
      throw error;
    } finally {
      this.inTransaction = false;
      this.pending = [];
    }
  }

  /** How many records of its own (not in the base) a view holds more after these changes; 0 outside a view. */
  private addedBy(changes: readonly PendingChange[]): number {
    const base = this.base;
    if (!base) return 0;
    let added = 0;
    for (const { collection, id, before, after } of changes) {
      if (base.collection(collection).has(id)) continue;
      added += (after === undefined ? 0 : 1) - (before === undefined ? 0 : 1);
    }
    return added;
  }

  private rollback(): void {
    for (const change of this.pending.reverse()) {
      this.collection(change.collection).restore(change.id, change.before as { id: string } | undefined);
    }
  }

  /** Makes this store a read-only base that views share: every record frozen, every write throws. */
  freeze(): this {
    for (const name of Object.keys(this.defs)) this.collection(name).freeze();
    this.viewClass = viewCollectionsOf(Object.keys(this.defs));
    return this;
  }

  /** Drops every change of a copy-on-write view, so it reads as its base again. */
  discardChanges(): void {
    if (!(this.collections instanceof ViewCollections)) throw new Error('only a copy-on-write view can discard its changes');
    this.collections.discardChanges();
    this.addedRecords = 0;
    this.version++;
  }

  private collection(name: string): Collection<{ id: string }> {
    return (this.collections as unknown as Record<string, Collection<{ id: string }>>)[name];
  }

  /** The whole state as plain data, collections in declaration order and records in insertion order. */
  snapshot(): Snapshot {
    const collections: Record<string, unknown[]> = {};
    for (const name of Object.keys(this.defs)) collections[name] = this.collection(name).all();
    return { format: 1, seed: this.seed, collections };
  }

  /** Replaces the in-memory state with a snapshot's (load, reset); records nothing. */
  load(snapshot: Snapshot): void {
    for (const name of Object.keys(this.defs)) {
      const collection = this.collection(name);
      for (const record of collection.all()) collection.restore(record.id, undefined);
      for (const record of (snapshot.collections[name] ?? []) as { id: string }[]) collection.restore(record.id, record);
    }
    this.version++;
  }
}

/**
 * A view's collections, each made on first use: most workspaces read or change a few of them, and a view with no
 * change of a collection reads its base all the same. Fewer objects per workspace is less for every full
 * collection of the heap to mark.
 */
class ViewCollections {
  private readonly made: (Collection<{ id: string }> | undefined)[];

  constructor(
    private readonly store: Store,
    private readonly names: readonly string[],
  ) {
    this.made = new Array(names.length).fill(undefined);
  }

  at(index: number): Collection<{ id: string }> {
    return (this.made[index] ??= this.store.makeCollection(this.names[index]!));
  }

  discardChanges(): void {
    for (const collection of this.made) collection?.discardChanges();
  }
}

/** A ViewCollections class with one accessor per collection name on its prototype, made once per frozen base. */
function viewCollectionsOf(names: readonly string[]): new (store: Store) => ViewCollections {
  class Views extends ViewCollections {
    constructor(store: Store) {
      super(store, names);
    }
  }
  names.forEach((name, index) => {
    Object.defineProperty(Views.prototype, name, {
      get(this: ViewCollections) {
        return this.at(index);
      },
      enumerable: true,
    });
  });
  return Views;
}

function toChange(change: PendingChange): Change {
  return change.after === undefined
    ? { c: change.collection, op: 'del', id: change.id }
    : { c: change.collection, op: 'put', id: change.id, rec: change.after };
}

/**
 * The persistence of a world that lives only in memory (tests, workspaces, `--in-memory`): nothing to load, nothing
 * to write. Kept beside the store it serves; a data file's is src/store/persistence-journal.ts.
 */
export class MemoryPersistence implements Persistence {
  readonly kind = 'memory' as const;
  async load(): Promise<undefined> {
    return undefined;
  }
  async commit(_changes: Change[], _snapshot: () => Snapshot): Promise<void> {}
  async replaceAll(_snapshot: Snapshot): Promise<void> {}
  async close(): Promise<void> {}
}
