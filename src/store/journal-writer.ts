import { open, type FileHandle } from 'node:fs/promises';
import { writeAll } from './snapshot-file.js';

/** Lines waiting for one write to one journal generation; every commit in it is acknowledged by that write. */
interface Batch {
  generation: number;
  lines: string[];
  done: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * Appends journal lines with group commit: the first line is written at once, and every line that arrives while
 * a write is in flight joins the next single write. Batches are written strictly in order, one at a time, so the
 * journal on disk is always a prefix of the commit sequence: a crash can tear only the very last line.
 */
export class JournalWriter {
  private queue: Batch[] = [];
  private inFlight: Batch | null = null;
  private running: Promise<void> | null = null;
  private readonly handles = new Map<number, FileHandle>();
  /** Generations whose first write must wait for something (a reset's snapshot) to be on disk. */
  private readonly gates = new Map<number, Promise<void>>();
  private failure: Error | null = null;

  constructor(
    private readonly pathOf: (generation: number) => string,
    private generation: number,
  ) {}

  /** Resolves once `line` has been handed to the OS (it then survives a crash of this process). */
  append(line: string): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    let batch = this.queue.at(-1);
    if (!batch || batch.generation !== this.generation) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const done = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      batch = { generation: this.generation, lines: [], done, resolve, reject };
      this.queue.push(batch);
    }
    batch.lines.push(line);
    this.running ??= this.run();
    return batch.done;
  }

  /** Lines appended from now on go to `generation`; with a gate, none of them is written before the gate resolves. */
  rotate(generation: number, gate?: Promise<void>): void {
    this.generation = generation;
    if (gate) this.gates.set(generation, gate);
  }

  /** Resolves when every line appended so far has been written (or failed). */
  async drain(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Waits for the writes to generations below `generation`, then closes their files. */
  async retireBelow(generation: number): Promise<void> {
    const older = [this.inFlight, ...this.queue].filter((b): b is Batch => b !== null && b.generation < generation);
    await older.at(-1)?.done.catch(() => {});
    for (const [gen, handle] of this.handles) {
      if (gen >= generation) continue;
      this.handles.delete(gen);
      await handle.close();
    }
  }

  /** Closes every journal file; call after drain(). */
  async close(): Promise<void> {
    for (const handle of this.handles.values()) await handle.close();
    this.handles.clear();
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = (this.inFlight = this.queue.shift()!);
      try {
        if (this.failure) throw this.failure;
        await this.gates.get(batch.generation);
        this.gates.delete(batch.generation);
        await this.write(batch);
        batch.resolve();
      } catch (error) {
        // A failed write may leave part of a line, and later lines would then follow a gap in the sequence:
        // stop journaling altogether rather than acknowledge commits that a restart could not replay.
        this.failure ??= new Error(`The journal could not be written (${(error as Error).message}); restart the sandbox.`);
        batch.reject(this.failure);
      } finally {
        this.inFlight = null;
      }
    }
    this.running = null;
  }

  private async write(batch: Batch): Promise<void> {
    let handle = this.handles.get(batch.generation);
    if (!handle) {
      // 'a' (O_APPEND): every write lands at the end, whatever else happened to the file.
      handle = await open(this.pathOf(batch.generation), 'a');
      this.handles.set(batch.generation, handle);
    }
    await writeAll(handle, batch.lines.join(''));
  }
}
