import { readFile, rm, stat, truncate } from 'node:fs/promises';
import { acquireDataFileLock, type DataFileLock } from './data-file-lock.js';
import { canonicalDataFile, journalGenerations, journalPath, snapshotTempPath } from './journal-files.js';
import { encodeJournalLine, JournalCorruptError, parseJournal, type JournalEntry, type ParsedJournal } from './journal-line.js';
import { replayJournal } from './journal-replay.js';
import { JournalWriter } from './journal-writer.js';
import { asStoreFileError, StoreFileError, type Change, type Persistence, type Snapshot } from './persistence.js';
import { isSnapshotFile, notARecord, readSnapshotFile, SNAPSHOT_FORMAT, SnapshotWriteAborted, writeSnapshotFile, type JournalMark } from './snapshot-file.js';

/** Tuning knobs; the defaults suit a developer's machine, tests shrink them to force compactions. */
export interface JournalPersistenceOptions {
  /** Never compact a journal smaller than this (bytes). Default 4 MiB. */
  compactMinBytes?: number;
  /**
   * Compact once the journal is this many times the snapshot's size. Default 1. Tying the trigger to the store's
   * size keeps the background work per commit constant: a snapshot of a 10x bigger store is written 10x less often.
   */
  compactGrowth?: number;
  /** How much of a snapshot is serialized between two turns of the event loop (bytes). Default 256 KiB. */
  snapshotChunkBytes?: number;
  /** Where a failed background compaction is reported (nothing is lost by one: the journal stays). Default console.error. */
  onBackgroundError?: (error: Error) => void;
}

const RESET_HINT = 'It was left untouched. Start with --reset (or RESET=1) to reseed it (this replaces it), or move it away.';

/**
 * The file store whose commit cost does not grow with the store: a commit appends one checksummed line to a
 * journal (group commit, written to the OS before it resolves); the snapshot (the data file, read with lowdb) is
 * rewritten in the background and older journal generations dropped once it is in place. See
 * docs/durability.md for the file layout, the line format and the crash windows.
 */
export class JournalPersistence implements Persistence {
  readonly kind = 'file' as const;
  /** The journal generation new commits go to; the snapshot on disk names the first generation it does not include. */
  private generation = 0;
  /** The sequence number of the last commit accepted; a snapshot records the last one it includes. */
  private seq = 0;
  /** Bytes of journal a load would replay after the newest snapshot. */
  private journalBytes = 0;
  private compactAt: number;
  /** Null until there is a snapshot on disk to append to (load found one, or replaceAll wrote one). */
  private writer: JournalWriter | null = null;
  private latest: (() => Snapshot) | null = null;
  /** The world's clock offset as last committed: the store's snapshots do not hold the clock, so this one adds it. */
  private clockOffsetMs = 0;
  /** Compactions and replaceAll run one at a time: both write the snapshot's temp file. */
  private exclusive: Promise<void> = Promise.resolve();
  private compactionPending = false;
  private closing: Promise<void> | null = null;
  private readonly opts: Required<JournalPersistenceOptions>;

  private constructor(
    readonly file: string,
    private readonly lock: DataFileLock,
    options: JournalPersistenceOptions,
  ) {
    this.opts = {
      compactMinBytes: options.compactMinBytes ?? 4 * 1024 * 1024,
      compactGrowth: options.compactGrowth ?? 1,
      snapshotChunkBytes: options.snapshotChunkBytes ?? 256 * 1024,
      onBackgroundError: options.onBackgroundError ?? ((error) => console.error('[store] background compaction failed:', error)),
    };
    this.compactAt = this.opts.compactMinBytes;
  }

  /** Claims `file` for this process (StoreFileError if another live process holds it) and answers its persistence. */
  static open(file: string, options: JournalPersistenceOptions = {}): JournalPersistence {
    const canonical = canonicalDataFile(file);
    return new JournalPersistence(canonical, acquireDataFileLock(canonical), options);
  }

  async load(): Promise<Snapshot | undefined> {
    this.assertOpen();
    try {
      return await this.read();
    } catch (error) {
      throw asStoreFileError(this.file, 'read', error);
    }
  }

  private async read(): Promise<Snapshot | undefined> {
    let raw: unknown;
    try {
      raw = await readSnapshotFile(this.file);
    } catch (error) {
      // The file system's own refusal (a directory, no permission) is not damage a reseed would mend.
      if (typeof (error as NodeJS.ErrnoException).code === 'string') throw error;
      throw new StoreFileError(this.file, `The data file ${this.file} cannot be read (${(error as Error).message}). ${RESET_HINT}`);
    }
    const generations = journalGenerations(this.file);
    if (raw === undefined) {
      if (generations.length === 0) return undefined;
      const first = journalPath(this.file, generations[0]);
      throw new StoreFileError(this.file, `The data file ${this.file} is missing but its journal (${first}) is there. ${RESET_HINT}`);
    }
    const format = (raw as { format?: unknown } | null)?.format;
    if (typeof format === 'number' && Number.isInteger(format) && format > SNAPSHOT_FORMAT) {
      // A newer sandbox's file: reseeding (the usual way out) would throw away a world this version cannot read.
      throw new StoreFileError(
        this.file,
        `The data file ${this.file} was written by a newer sandbox (store format ${format}; this one reads format ${SNAPSHOT_FORMAT}). It was left untouched. Run that newer version on it, or point --data (DATA_FILE) at another file.`,
      );
    }
    if (!isSnapshotFile(raw)) {
      const where =
        raw !== null && typeof raw === 'object' && 'collections' in raw && typeof raw.collections === 'object' && raw.collections !== null
          ? notARecord(raw.collections)
          : undefined;
      const why = where === undefined ? '' : ` (${where} is not a record with a string id)`;
      throw new StoreFileError(this.file, `The data file ${this.file} is not a sandbox store${why}. ${RESET_HINT}`);
    }

    const mark: Partial<JournalMark> = raw.journal ?? { generation: 0 };
    const live = generations.filter((g) => g >= mark.generation!);
    const entries: JournalEntry[] = [];
    let lastSeq = mark.seq;
    let bytes = 0;
    for (const [i, generation] of live.entries()) {
      const path = journalPath(this.file, generation);
      const damaged = (what: string) => new StoreFileError(path, `The journal ${path} of the data file ${this.file} is damaged: ${what}. ${RESET_HINT}`);
      let parsed: ParsedJournal;
      try {
        // Only the newest generation can end in a torn line: writes are strictly ordered across generations.
        parsed = parseJournal(await readFile(path), i === live.length - 1);
      } catch (error) {
        if (error instanceof JournalCorruptError) throw damaged(error.message);
        throw error;
      }
      for (const entry of parsed.entries) {
        if (lastSeq !== undefined && entry.seq !== lastSeq + 1) {
          throw damaged(`commit ${lastSeq + 1} is missing (the next line holds commit ${entry.seq})`);
        }
        lastSeq = entry.seq;
        entries.push(entry);
      }
      // The torn tail was never acknowledged; cut it so the next append starts on a line boundary.
      if (parsed.tornBytes > 0) await truncate(path, parsed.goodBytes);
      bytes += parsed.goodBytes;
    }
    // Generations below the mark are inside the snapshot already (a compaction stopped before deleting them), and
    // a temp snapshot is what a compaction left when it was stopped: neither holds anything the files above lack.
    for (const generation of generations) if (generation < mark.generation!) await rm(journalPath(this.file, generation), { force: true });
    await rm(snapshotTempPath(this.file), { force: true });

    this.generation = live.at(-1) ?? mark.generation!;
    this.seq = lastSeq ?? 0;
    this.journalBytes = bytes;
    this.compactAt = this.threshold((await stat(this.file)).size);
    this.writer = new JournalWriter((g) => journalPath(this.file, g), this.generation);
    const loaded = replayJournal({ format: raw.format, seed: raw.seed, collections: raw.collections, ...(raw.clock && { clock: raw.clock }) }, entries);
    this.clockOffsetMs = loaded.clock?.offset_ms ?? 0;
    return loaded;
  }

  commit(changes: Change[], snapshot: () => Snapshot): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`The store ${this.file} is closed.`));
    if (!this.writer) return Promise.reject(new Error(`The store ${this.file} has no snapshot yet: call load() or replaceAll() first.`));
    this.latest = snapshot;
    if (changes.length === 0) return Promise.resolve();
    const line = encodeJournalLine(++this.seq, changes);
    this.journalBytes += Buffer.byteLength(line);
    const written = this.writer.append(line);
    this.scheduleCompaction();
    return written;
  }

  commitClock(offsetMs: number): Promise<void> {
    if (this.closing) return Promise.reject(new Error(`The store ${this.file} is closed.`));
    if (!this.writer) return Promise.reject(new Error(`The store ${this.file} has no snapshot yet: call load() or replaceAll() first.`));
    this.clockOffsetMs = offsetMs;
    const line = encodeJournalLine(++this.seq, [], offsetMs);
    this.journalBytes += Buffer.byteLength(line);
    const written = this.writer.append(line);
    this.scheduleCompaction();
    return written;
  }

  async replaceAll(snapshot: Snapshot): Promise<void> {
    this.assertOpen();
    this.clockOffsetMs = snapshot.clock?.offset_ms ?? 0;
    // A new generation above anything on disk, so journals left from before (e.g. under --reset) are never replayed.
    const generation = Math.max(this.generation, ...journalGenerations(this.file)) + 1;
    const mark: JournalMark = { generation, seq: this.seq };
    const included = this.journalBytes;
    // Commits made after this call build on the new world: none may be acknowledged before its snapshot is on disk,
    // or a crash in between would replay them onto the old world.
    let openGate!: () => void;
    let failGate!: (error: Error) => void;
    const gate = new Promise<void>((resolve, reject) => ((openGate = resolve), (failGate = reject)));
    gate.catch(() => {});
    this.writer ??= new JournalWriter((g) => journalPath(this.file, g), generation);
    this.writer.rotate(generation, gate);
    this.generation = generation;
    await this.exclusively(async () => {
      let size: number;
      try {
        size = await writeSnapshotFile(this.file, { ...snapshot, journal: mark }, { chunkBytes: this.opts.snapshotChunkBytes });
      } catch (error) {
        const refused = asStoreFileError(this.file, 'written', error);
        failGate(refused);
        throw refused;
      }
      openGate();
      this.journalBytes -= included;
      this.compactAt = this.threshold(size);
      await this.dropJournalsBelow(generation);
    });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // A compaction in progress stops at its next chunk (it deletes nothing unless its snapshot is in place).
      await this.exclusive;
      await this.writer?.drain();
      await this.writer?.close();
      this.lock.release();
    })();
    return this.closing;
  }

  /** Starts a background compaction once the journal has grown past the threshold; never on the request path. */
  private scheduleCompaction(): void {
    if (this.compactionPending || !this.latest || this.journalBytes < this.compactAt) return;
    this.compactionPending = true;
    // setImmediate: the commit that crossed the threshold (and anything else queued) goes first.
    setImmediate(() => {
      this.exclusively(() => this.compact())
        .catch((error: Error) => {
          this.compactAt = this.journalBytes + this.opts.compactMinBytes;
          this.opts.onBackgroundError(error);
        })
        .finally(() => {
          this.compactionPending = false;
          // Commits that arrived meanwhile may have crossed the next threshold already.
          if (!this.closing) this.scheduleCompaction();
        });
    });
  }

  private async compact(): Promise<void> {
    if (this.closing || !this.latest || !this.writer) return;
    // One synchronous step: the store's state now holds exactly commits 1..this.seq (transactions are synchronous
    // and commit() is called in the same step), and every later commit goes to the new generation.
    const snapshot = { ...this.latest(), ...this.clockPart() };
    const generation = this.generation + 1;
    const mark: JournalMark = { generation, seq: this.seq };
    const included = this.journalBytes;
    this.writer.rotate(generation);
    this.generation = generation;
    let size: number;
    try {
      size = await writeSnapshotFile(
        this.file,
        { ...snapshot, journal: mark },
        {
          chunkBytes: this.opts.snapshotChunkBytes,
          shouldStop: () => this.closing !== null,
        },
      );
    } catch (error) {
      // Both generations stay on disk and the old snapshot still names the older one: a load replays both.
      if (error instanceof SnapshotWriteAborted) return;
      throw error;
    }
    this.journalBytes -= included;
    this.compactAt = this.threshold(size);
    await this.dropJournalsBelow(generation);
  }

  /** Deletes the journals the snapshot on disk now includes, once their in-flight writes have finished. */
  private async dropJournalsBelow(generation: number): Promise<void> {
    await this.writer?.retireBelow(generation);
    for (const g of journalGenerations(this.file)) if (g < generation) await rm(journalPath(this.file, g), { force: true });
  }

  /** The clock offset as a snapshot holds it: nothing when the clock runs with the wall clock. */
  private clockPart(): Pick<Snapshot, 'clock'> {
    return this.clockOffsetMs > 0 ? { clock: { offset_ms: this.clockOffsetMs } } : {};
  }

  private threshold(snapshotBytes: number): number {
    return Math.max(this.opts.compactMinBytes, this.opts.compactGrowth * snapshotBytes);
  }

  private exclusively(fn: () => Promise<void>): Promise<void> {
    const run = this.exclusive.then(fn);
    this.exclusive = run.catch(() => {});
    return run;
  }

  private assertOpen(): void {
    if (this.closing) throw new Error(`The store ${this.file} is closed.`);
  }
}
