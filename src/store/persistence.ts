/** The whole state of one world, as written to disk: one array of records per collection, in insertion order. */
export interface Snapshot {
  format: 1;
  seed: number;
  collections: Record<string, unknown[]>;
}

/** One record-level change made by a request; the unit a journal appends. `rec` is absent for deletions. */
export interface Change {
  c: string;
  op: 'put' | 'del';
  id: string;
  rec?: unknown;
}

/**
 * Where a world's state lives between restarts. Kept to this one small interface so the storage strategy
 * (memory, whole-file lowdb, journal + snapshot) changes in one place.
 */
export interface Persistence {
  readonly kind: 'memory' | 'file';
  /** The persisted state, or undefined on a first start. Throws a StoreFileError naming the file when it cannot be read. */
  load(): Promise<Snapshot | undefined>;
  /** Resolves once the changes survive a crash of this process; called once per successful mutating request. */
  commit(changes: Change[], snapshot: () => Snapshot): Promise<void>;
  /** Replaces everything persisted (first seed, reset). */
  replaceAll(snapshot: Snapshot): Promise<void>;
  /** Flushes pending work and releases the data file. */
  close(): Promise<void>;
}

/** A data file that cannot be used: the message names the file and how to recover. */
export class StoreFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'StoreFileError';
  }
}
