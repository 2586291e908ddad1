// The baseline the journal replaced (the core's first file store), kept here only so the micro-benchmark can compare.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { StoreFileError, type Persistence, type Snapshot } from '../src/store/persistence.js';

/**
 * lowdb's own strategy: every commit rewrites the whole file (steno: temp file + rename). Commits that arrive
 * while a write is in flight share the next write. Simple and safe, but a write costs as much as the store is big.
 */
export class WholeFilePersistence implements Persistence {
  readonly kind = 'file' as const;
  private readonly db: Low<Snapshot | null>;
  private writing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private latest: (() => Snapshot) | null = null;

  constructor(readonly file: string) {
    this.db = new Low<Snapshot | null>(new JSONFile<Snapshot | null>(file), null);
  }

  async load(): Promise<Snapshot | undefined> {
    try {
      await this.db.read();
    } catch (error) {
      throw new StoreFileError(
        this.file,
        `The data file ${this.file} cannot be read (${(error as Error).message}). Start with --reset (or RESET=1) to reseed it, or move it away.`,
      );
    }
    const data = this.db.data;
    if (data === null) return undefined;
    if (data?.format !== 1 || typeof data.collections !== 'object') {
      throw new StoreFileError(this.file, `The data file ${this.file} is not a sandbox store. Start with --reset (or RESET=1) to reseed it, or move it away.`);
    }
    return data;
  }

  commit(_changes: unknown, snapshot: () => Snapshot): Promise<void> {
    this.latest = snapshot;
    if (!this.writing) return (this.writing = this.write());
    // A write is in flight: every commit that arrives now shares the one write queued behind it.
    return (this.queued ??= this.writing.then(() => {
      this.queued = null;
      return (this.writing = this.write());
    }));
  }

  async replaceAll(snapshot: Snapshot): Promise<void> {
    await this.writing;
    await mkdir(dirname(this.file), { recursive: true });
    this.db.data = snapshot;
    await this.db.write();
  }

  async close(): Promise<void> {
    await this.queued;
    await this.writing;
  }

  private async write(): Promise<void> {
    try {
      await mkdir(dirname(this.file), { recursive: true });
      this.db.data = this.latest!();
      await this.db.write();
    } finally {
      this.writing = null;
    }
  }
}
