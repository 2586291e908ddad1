// One workspace's bounded ring of journal entries: at most so many entries and so many bytes, the oldest dropped
// first. Entries arrive redacted and capped (src/observe/request-journal.ts), so what a ring counts is what it holds.
import type { components } from '../contract/document/generated.js';

/** One recorded request, as GET /_sandbox/requests shows it (the contract's SandboxRequest). */
export type JournalEntry = components['schemas']['SandboxRequest'];

/** An entry as a ring keeps it: its place in the order of all rings, and about how many bytes it holds. */
export interface Held {
  seq: number;
  bytes: number;
  entry: JournalEntry;
}

/** A bounded ring, newest last. */
export class JournalRing {
  private readonly slots: (Held | undefined)[];
  private next = 0; // where the next entry goes
  private count = 0;
  /** About how many bytes the held entries take. */
  bytes = 0;

  constructor(readonly capacity: number) {
    this.slots = new Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Adds an entry; answers how many bytes the ring let go to make room (the capacity's oldest). */
  push(held: Held): number {
    const dropped = this.count === this.capacity ? this.slots[this.next]!.bytes : 0;
    this.slots[this.next] = held;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    this.bytes += held.bytes - dropped;
    return dropped;
  }

  /** Drops the oldest entry; answers the bytes it held (0 when empty). */
  dropOldest(): number {
    if (this.count === 0) return 0;
    const oldest = (this.next - this.count + this.capacity) % this.capacity;
    const bytes = this.slots[oldest]!.bytes;
    this.slots[oldest] = undefined;
    this.count--;
    this.bytes -= bytes;
    return bytes;
  }

  /** The held entries, newest first. */
  *newestFirst(): Generator<Held> {
    for (let i = 1; i <= this.count; i++) yield this.slots[(this.next - i + this.capacity) % this.capacity]!;
  }
}
