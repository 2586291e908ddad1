/** The whole state of one world, as written to disk: one array of records per collection, in insertion order. */
export interface Snapshot {
  format: 1;
  seed: number;
  collections: Record<string, unknown[]>;
  /** How far the world's clock runs ahead of the wall clock (POST /_sandbox/clock/advance); absent: not at all. */
  clock?: { offset_ms: number };
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
  /**
   * Resolves once the world's clock offset survives a crash, like a commit: a restart resumes at the same world
   * time. Absent where nothing outlives the process.
   */
  commitClock?(offsetMs: number): Promise<void>;
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

/** What a user can do about a data file the system refuses to open or write (a path in a folder it cannot write, a directory). */
const PLACE_HINT = 'Point --data (DATA_FILE) at a file in a folder this process can write, or start with --in-memory.';

/**
 * `error` as a StoreFileError naming the data file: one the store raised passes through; a file system's own
 * (EISDIR, ENOTDIR, EACCES, EROFS...) becomes a sentence saying what could not be done, so a user reads what is
 * wrong with the file instead of a stack trace.
 */
export function asStoreFileError(file: string, doing: string, error: unknown): Error {
  if (error instanceof StoreFileError || !(error instanceof Error) || typeof (error as NodeJS.ErrnoException).code !== 'string') {
    return error as Error;
  }
  return new StoreFileError(file, `The data file ${file} cannot be ${doing} (${error.message}). ${PLACE_HINT}`);
}
