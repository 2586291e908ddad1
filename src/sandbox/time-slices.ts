// Work over a bundle (checking, building, exporting it) in slices of the event loop: the work calls `pause()`
// between bounded steps (a record, a journal entry, a file, a compiled schema), and once the slice has run its time
// the next step waits for a turn of the sandbox's turn queue (src/http/turn-queue.ts), so other clients' requests
// are served in between, however many loads and exports run. A bundle's whole check and build held the loop for
// hundreds of milliseconds at once.
import { performance } from 'node:perf_hooks';
import type { TurnQueue } from '../http/turn-queue.js';

/**
 * How long one slice runs before it yields: a tenth of the 50 ms any other request may wait, so that the step that
 * ends it, the socket reads of its turn and a garbage collection still fit, even on a core shared with other work.
 */
export const SLICE_MS = 5;

/** The slices of one piece of work. */
export class TimeSlices {
  private started = performance.now();

  constructor(
    private readonly turns: TurnQueue,
    private readonly sliceMs = SLICE_MS,
  ) {}

  /** Yields to the event loop if this slice has run its time; call it between steps. */
  async pause(): Promise<void> {
    if (performance.now() - this.started < this.sliceMs) return;
    await this.yield();
  }

  /** Yields to the event loop now (until the queue's next turn for it), and starts a new slice. */
  async yield(): Promise<void> {
    await this.turns.next();
    this.started = performance.now();
  }

  /**
   * Awaits `io` (a file read), then a turn of the queue: what follows runs in a slice of its own, not in the turn
   * the I/O happened to finish in, beside whatever else that turn runs.
   */
  async after<T>(io: Promise<T>): Promise<T> {
    const value = await io;
    await this.yield();
    return value;
  }

  /** Runs `step` over each item, pausing between items. */
  async each<T>(items: Iterable<T>, step: (item: T, index: number) => void): Promise<void> {
    let index = 0;
    for (const item of items) {
      step(item, index++);
      await this.pause();
    }
  }
}
