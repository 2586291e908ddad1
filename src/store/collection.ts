/** How a collection is declared by an area: which fields get a lookup index. */
export interface CollectionDef<T extends { id: string }> {
  indexes: readonly (keyof T & string)[];
  /** Computed keys: one record may be found under several values (e.g. a supplier item under each cost tier id). */
  keys: Record<string, (record: T) => readonly unknown[]>;
  /** Phantom field so the record type travels with the definition. */
  readonly __record?: T;
}

/** Declares a collection of records of type T; areas export these and src/store/collections.ts gathers them. */
export function defineCollection<T extends { id: string }>(
  opts: { indexes?: readonly (keyof T & string)[]; keys?: Record<string, (record: T) => readonly unknown[]> } = {},
): CollectionDef<T> {
  return { indexes: opts.indexes ?? [], keys: opts.keys ?? {} };
}

/** Receives every mutation so the store can persist it and undo it if the request fails. */
export interface ChangeSink {
  record(collection: string, id: string, before: unknown, after: unknown): void;
}

/**
 * Records of one kind, held in insertion order, with Map indexes so a lookup never scans.
 * Records are immutable: update() replaces the record, which lets a transaction keep the old one for rollback.
 */
export class Collection<T extends { id: string }> {
  private readonly byId = new Map<string, T>();
  private readonly indexes = new Map<string, Map<unknown, Map<string, T>>>();
  private readonly keyFns = new Map<string, (record: T) => readonly unknown[]>();

  constructor(
    readonly name: string,
    def: CollectionDef<T>,
    private readonly sink: ChangeSink,
  ) {
    for (const field of def.indexes) {
      this.indexes.set(field, new Map());
      this.keyFns.set(field, (record) => [(record as Record<string, unknown>)[field]]);
    }
    for (const [key, fn] of Object.entries(def.keys ?? {})) {
      this.indexes.set(key, new Map());
      this.keyFns.set(key, fn);
    }
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): T | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Every record in insertion order. */
  all(): T[] {
    return [...this.byId.values()];
  }

  /** The records whose indexed `field` equals `value`, in insertion order. */
  where<K extends keyof T & string>(field: K, value: T[K]): T[] {
    const index = this.indexes.get(field);
    if (!index) throw new Error(`${this.name}.${field} is not indexed; declare it in the collection definition`);
    const bucket = index.get(value);
    return bucket ? [...bucket.values()] : [];
  }

  /** The records filed under a computed key of the collection definition (`keys`), in insertion order. */
  byKey(key: string, value: unknown): T[] {
    const index = this.indexes.get(key);
    if (!index || !this.keyFns.has(key)) throw new Error(`${this.name} has no key ${key}; declare it in the collection definition`);
    const bucket = index.get(value);
    return bucket ? [...bucket.values()] : [];
  }

  /** How many records have `field` equal to `value`, without copying them. */
  countWhere<K extends keyof T & string>(field: K, value: T[K]): number {
    return this.indexes.get(field)?.get(value)?.size ?? 0;
  }

  insert(record: T): T {
    if (this.byId.has(record.id)) throw new Error(`${this.name} ${record.id} exists already`);
    this.put(record);
    this.sink.record(this.name, record.id, undefined, record);
    return record;
  }

  /** Replaces the record with a copy carrying the patch and answers the new record. */
  update(id: string, patch: Partial<T>): T {
    const before = this.byId.get(id);
    if (!before) throw new Error(`${this.name} ${id} does not exist`);
    const after = { ...before, ...patch, id } as T;
    this.unindex(before);
    this.put(after);
    this.sink.record(this.name, id, before, after);
    return after;
  }

  remove(id: string): T | undefined {
    const before = this.byId.get(id);
    if (!before) return undefined;
    this.unindex(before);
    this.byId.delete(id);
    this.sink.record(this.name, id, before, undefined);
    return before;
  }

  /** Puts a record back exactly as it was, without recording a change: used by rollback and loading. */
  restore(id: string, record: T | undefined): void {
    const current = this.byId.get(id);
    if (current) this.unindex(current);
    if (record) this.put(record);
    else this.byId.delete(id);
  }

  /** Map.set on an existing key keeps its place, so an update never reorders a collection. */
  private put(record: T): void {
    this.byId.set(record.id, record);
    for (const [name, index] of this.indexes) {
      for (const key of this.keyFns.get(name)!(record)) {
        let bucket = index.get(key);
        if (!bucket) index.set(key, (bucket = new Map()));
        bucket.set(record.id, record);
      }
    }
  }

  private unindex(record: T): void {
    for (const [name, index] of this.indexes) {
      for (const key of this.keyFns.get(name)!(record)) {
        const bucket = index.get(key);
        bucket?.delete(record.id);
        if (bucket && bucket.size === 0) index.delete(key);
      }
    }
  }
}
