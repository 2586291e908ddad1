/** How a collection is declared by an area: which fields get a lookup index. */
export interface CollectionDef<T extends { id: string }> {
  indexes: readonly (keyof T & string)[];
  /** Computed keys: one record may be found under several values (e.g. a supplier item under each cost tier id). */
  keys: Record<string, (record: T) => readonly unknown[]>;
  /** Phantom field so the record type travels with the definition. */
  readonly __record?: T;
}

/** Declares a collection of records of type T; areas export these and src/areas/collections.ts gathers them. */
export function defineCollection<T extends { id: string }>(
  opts: { indexes?: readonly (keyof T & string)[]; keys?: Record<string, (record: T) => readonly unknown[]> } = {},
): CollectionDef<T> {
  return { indexes: opts.indexes ?? [], keys: opts.keys ?? {} };
}

/**
 * Receives every mutation so the store can persist it and undo it if the request fails, and hears of every read, so
 * the store can tell which collections an answer was made from (a kept answer of a read, src/pipeline/replay-cache.ts).
 */
export interface ChangeSink {
  record(collection: string, id: string, before: unknown, after: unknown): void;
  read(collection: string): void;
}

/**
 * Records of one kind, held in insertion order, with Map indexes so a lookup never scans.
 * Records are immutable: update() replaces the record, which lets a transaction keep the old one for rollback.
 *
 * A collection built over a frozen `base` is a copy-on-write view of it: it keeps only what it changed (a record,
 * or null for a deleted base record) with indexes of those records, and reads the base for the rest. Many
 * workspaces then share one seeded world and each costs what it changed. Reads keep the order a full copy would
 * have: base records in their place (an updated one too), then the records this view added, in insertion order.
 */
export class Collection<T extends { id: string }> {
  /** Every record; in a view, the base's (never written through the view). */
  private readonly records: Map<string, T>;
  private readonly indexes: RecordIndexes<T>;
  private readonly keyFns: KeyFns<T>;
  /** A view's changes by id: the current record, or null where a base record was deleted. Created on first write. */
  private own: Map<string, T | null> | undefined;
  private ownIndexes: RecordIndexes<T> | undefined;
  /** Records a view added minus base records it deleted. */
  private sizeDelta = 0;
  private frozen = false;
  /**
   * whereInOrder's answers since the collection last changed, by index and value: a list read again and again
   * between two writes is ordered once. A create keeps those it extends at the end (keepOrdered); any other write
   * drops them all.
   */
  private ordered: Map<string, Map<unknown, { order: (a: T, b: T) => number; records: readonly T[] }>> | undefined;

  constructor(
    readonly name: string,
    def: CollectionDef<T>,
    private readonly sink: ChangeSink,
    private readonly base?: Collection<T>,
  ) {
    if (base) {
      if (!base.frozen) throw new Error(`${name}: a copy-on-write view needs a frozen base`);
      this.records = base.records;
      this.indexes = base.indexes;
      this.keyFns = base.keyFns;
      return;
    }
    this.keyFns = new Map();
    for (const field of def.indexes) this.keyFns.set(field, (record) => [(record as Record<string, unknown>)[field]]);
    for (const [key, fn] of Object.entries(def.keys ?? {})) this.keyFns.set(key, fn);
    this.records = new Map();
    this.indexes = emptyIndexes(this.keyFns);
  }

  get size(): number {
    this.sink.read(this.name);
    return this.records.size + this.sizeDelta;
  }

  get(id: string): T | undefined {
    this.sink.read(this.name);
    if (this.own) {
      const changed = this.own.get(id);
      if (changed !== undefined) return changed ?? undefined;
    }
    return this.records.get(id);
  }

  has(id: string): boolean {
    return this.get(id) !== undefined;
  }

  /** Every record in insertion order. */
  all(): T[] {
    this.sink.read(this.name);
    const own = this.own;
    if (!own || own.size === 0) return [...this.records.values()];
    const out: T[] = [];
    for (const [id, record] of this.records) {
      const changed = own.get(id);
      if (changed === undefined) out.push(record);
      else if (changed) out.push(changed);
    }
    for (const [id, changed] of own) if (changed && !this.records.has(id)) out.push(changed);
    return out;
  }

  /** The records whose indexed `field` equals `value`, in insertion order. */
  where<K extends keyof T & string>(field: K, value: T[K]): T[] {
    if (!this.indexes.has(field)) throw new Error(`${this.name}.${field} is not indexed; declare it in the collection definition`);
    return this.bucket(field, value);
  }

  /**
   * The records whose indexed `field` equals `value`, sorted by `order` (a total order, so the answer is the same
   * whatever the insertion order): the array is shared by every caller until the collection next changes, hence
   * frozen. A view with no change of its own answers from its base's (which never changes).
   */
  whereInOrder<K extends keyof T & string>(field: K, value: T[K], order: (a: T, b: T) => number): readonly T[] {
    this.sink.read(this.name);
    if (this.base && (!this.own || this.own.size === 0)) return this.base.whereInOrder(field, value, order);
    const byValue = (this.ordered ??= new Map()).get(field) ?? new Map<unknown, { order: (a: T, b: T) => number; records: readonly T[] }>();
    this.ordered.set(field, byValue);
    const kept = byValue.get(value);
    if (kept && kept.order === order) return kept.records;
    const records = Object.freeze(this.where(field, value).sort(order));
    byValue.set(value, { order, records });
    return records;
  }

  /** The records filed under a computed key of the collection definition (`keys`), in insertion order. */
  byKey(key: string, value: unknown): T[] {
    if (!this.indexes.has(key)) throw new Error(`${this.name} has no key ${key}; declare it in the collection definition`);
    return this.bucket(key, value);
  }

  /** How many records have `field` equal to `value`, without copying them (in a view with changes, it merges). */
  countWhere<K extends keyof T & string>(field: K, value: T[K]): number {
    this.sink.read(this.name);
    if (!this.own || this.own.size === 0) return this.indexes.get(field)?.get(value)?.size ?? 0;
    return this.indexes.has(field) ? this.bucket(field, value).length : 0;
  }

  insert(record: T): T {
    if (this.has(record.id)) throw new Error(`${this.name} ${record.id} exists already`);
    this.write(record.id, record);
    this.sink.record(this.name, record.id, undefined, record);
    return record;
  }

  /** Replaces the record with a copy carrying the patch and answers the new record. */
  update(id: string, patch: Partial<T>): T {
    const before = this.get(id);
    if (!before) throw new Error(`${this.name} ${id} does not exist`);
    const after = { ...before, ...patch, id } as T;
    this.write(id, after);
    this.sink.record(this.name, id, before, after);
    return after;
  }

  remove(id: string): T | undefined {
    const before = this.get(id);
    if (!before) return undefined;
    this.write(id, undefined);
    this.sink.record(this.name, id, before, undefined);
    return before;
  }

  /** Puts a record back exactly as it was, without recording a change: used by rollback and loading. */
  restore(id: string, record: T | undefined): void {
    this.write(id, record);
  }

  /** A view's changed ids (added, updated or deleted), in the order it first changed them; undefined outside a view. */
  ownIds(): IterableIterator<string> | undefined {
    this.sink.read(this.name);
    if (!this.base) return undefined;
    return (this.own ?? new Map<string, never>()).keys();
  }

  /** Forgets every change of a view: it reads as its base again (a workspace's reset). */
  discardChanges(): void {
    if (!this.base) throw new Error(`${this.name} is not a copy-on-write view`);
    this.own = undefined;
    this.ownIndexes = undefined;
    this.sizeDelta = 0;
    this.ordered = undefined;
  }

  /** Makes this collection a read-only base for views: its records are frozen and every write throws. */
  freeze(): void {
    for (const record of this.records.values()) deepFreeze(record);
    this.frozen = true;
  }

  /** Map.set on an existing key keeps its place, so an update never reorders a collection. */
  private write(id: string, next: T | undefined): void {
    if (this.frozen) throw new Error(`${this.name} is a frozen base; write through a copy-on-write view`);
    this.keepOrdered(id, next);
    if (!this.base) {
      reindex(this.indexes, this.keyFns, this.records.get(id), next);
      if (next) this.records.set(id, next);
      else this.records.delete(id);
      return;
    }
    const own = (this.own ??= new Map());
    const ownIndexes = (this.ownIndexes ??= emptyIndexes(this.keyFns));
    const changed = own.get(id);
    const inBase = this.records.get(id);
    const wasVisible = changed === undefined ? inBase !== undefined : changed !== null;
    // Putting the base record back (a rollback of this view's first change) leaves nothing to keep.
    const keep = next === inBase ? undefined : next;
    reindex(ownIndexes, this.keyFns, changed ?? undefined, keep);
    if (next === inBase) own.delete(id);
    else own.set(id, next ?? null);
    this.sizeDelta += (next ? 1 : 0) - (wasVisible ? 1 : 0);
  }

  /**
   * whereInOrder's answers after a write. A new record (an id never seen here) that sorts after every record of a
   * list it joins is that list's last one, in a list shared by no caller yet, while the lists it does not join stay
   * as they are: a list read between creates (each newer than the last) is not sorted again. Any other write drops
   * them all.
   */
  private keepOrdered(id: string, next: T | undefined): void {
    const ordered = this.ordered;
    if (!ordered) return;
    if (next === undefined || this.records.has(id) || this.own?.get(id) !== undefined) {
      this.ordered = undefined;
      return;
    }
    for (const [field, byValue] of ordered) {
      for (const value of new Set(this.keyFns.get(field)!(next))) {
        const kept = byValue.get(value);
        if (!kept) continue;
        const last = kept.records.at(-1);
        if (last === undefined || kept.order(last, next) < 0) byValue.set(value, { order: kept.order, records: Object.freeze([...kept.records, next]) });
        else byValue.delete(value);
      }
    }
  }

  /** One index bucket, merged with a view's changes: base order first, then the records the view filed there. */
  private bucket(name: string, value: unknown): T[] {
    this.sink.read(this.name);
    const inBase = this.indexes.get(name)!.get(value);
    const own = this.own;
    if (!own || own.size === 0) return inBase ? [...inBase.values()] : [];
    const ownBucket = this.ownIndexes!.get(name)!.get(value);
    const out: T[] = [];
    if (inBase) {
      for (const [id, record] of inBase) {
        const changed = own.get(id);
        if (changed === undefined) out.push(record);
        else if (changed && ownBucket?.has(id)) out.push(changed);
      }
    }
    if (ownBucket) for (const [id, record] of ownBucket) if (!inBase?.has(id)) out.push(record);
    return out;
  }
}

// The lookup indexes of a collection: index name -> key value -> the records filed under it (id -> record), each
// bucket in insertion order.

/** One collection's indexes. */
export type RecordIndexes<T> = Map<string, Map<unknown, Map<string, T>>>;

/** How a record's keys are computed for each index. */
export type KeyFns<T> = Map<string, (record: T) => readonly unknown[]>;

/** Empty indexes for the given key functions. */
export function emptyIndexes<T>(keyFns: KeyFns<T>): RecordIndexes<T> {
  const indexes: RecordIndexes<T> = new Map();
  for (const name of keyFns.keys()) indexes.set(name, new Map());
  return indexes;
}

/**
 * Files `after` in place of `before` (either may be absent). A record whose key did not change keeps its place in
 * that bucket (Map.set on an existing key), so an update never reorders an index query.
 */
export function reindex<T extends { id: string }>(indexes: RecordIndexes<T>, keyFns: KeyFns<T>, before: T | undefined, after: T | undefined): void {
  for (const [name, index] of indexes) {
    const keyFn = keyFns.get(name)!;
    const newKeys = after ? keyFn(after) : [];
    if (before) {
      for (const key of keyFn(before)) {
        if (newKeys.includes(key)) continue;
        const bucket = index.get(key);
        bucket?.delete(before.id);
        if (bucket && bucket.size === 0) index.delete(key);
      }
    }
    if (!after) continue;
    for (const key of newKeys) {
      let bucket = index.get(key);
      if (!bucket) index.set(key, (bucket = new Map()));
      bucket.set(after.id, after);
    }
  }
}

/** Freezes a record and everything it holds, so a shared base record cannot be changed in place. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
