// Memory counted before it is spent. A bundle's load, an upload and an export each take memory in proportion to
// bytes known before the work starts (the body's declared or largest size, a world's counted size); they reserve
// it here first, and the reservation counts as held until the work is done. Work of one kind is also capped in
// flight (loads per process, exports per process and per workspace), since each holds the event loop in turn and a
// burst of them is what a hostile client sends. A refusal is MemoryRefused: the HTTP layer answers 503 with
// Retry-After, and nothing was read, parsed or built.
import { memoryShortage, type MemoryGauge, type MemoryReading } from './memory-budget.js';

/** Why work was refused before it started: the budget is short, or too much of its kind is in flight. */
export class MemoryRefused extends Error {
  constructor(
    readonly reason: 'memory' | 'busy',
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = 'MemoryRefused';
  }
}

/** A cap on work in flight: at most `max` holders of `key` at once, `what` naming the work in the refusal. */
export interface InFlightCap {
  key: string;
  max: number;
  what: string;
}

/** What a piece of work asks of the budget before it starts. */
export interface Claim {
  /** Bytes it may hold at its peak (0 for none beyond its slot). */
  bytes: number;
  /** The caps it counts against. */
  caps?: readonly InFlightCap[];
}

/** A claim granted: held until released (releasing twice releases once). */
export interface Reservation {
  readonly bytes: number;
  release(): void;
}

/** Seconds to wait after a refusal: work in flight ends within seconds; memory frees as idle workspaces expire. */
const RETRY_BUSY_SECONDS = 5;
const RETRY_MEMORY_SECONDS = 30;

/**
 * The process's memory budget: what the gauge reads plus what is reserved, against `percent` of each limit
 * (memoryShortage), and the work in flight under each cap.
 */
export class MemoryBudget {
  private reservedBytes = 0;
  private readonly holders = new Map<string, number>();

  constructor(
    private readonly gauge: MemoryGauge,
    readonly percent: number,
  ) {}

  /** Bytes reserved by work in flight. */
  get reserved(): number {
    return this.reservedBytes;
  }

  /** The process's reading as it is now, without what is reserved (a plain workspace creation asks this). */
  reading(): MemoryReading {
    return this.gauge();
  }

  /** Which limit the process would be past with `more` bytes beside what it holds and has reserved, if any. */
  shortage(more = 0): ReturnType<typeof memoryShortage> {
    const reading = this.gauge();
    const extra = this.reservedBytes + more;
    return memoryShortage(
      { ...reading, external: reading.external + extra, rss: reading.processLimit === undefined ? reading.rss : reading.rss + extra },
      this.percent,
    );
  }

  /** Grants a claim, or throws MemoryRefused: 'busy' when a cap is full, 'memory' when its bytes do not fit. */
  reserve({ bytes, caps = [] }: Claim, refusal: { memory: string }): Reservation {
    for (const cap of caps) {
      if ((this.holders.get(cap.key) ?? 0) >= cap.max) {
        throw new MemoryRefused('busy', `${cap.what} are in flight (at most ${cap.max} at once); retry in a few seconds.`, RETRY_BUSY_SECONDS);
      }
    }
    if (this.shortage(bytes) !== undefined) throw new MemoryRefused('memory', refusal.memory, RETRY_MEMORY_SECONDS);
    this.reservedBytes += bytes;
    for (const cap of caps) this.holders.set(cap.key, (this.holders.get(cap.key) ?? 0) + 1);
    let held = true;
    return {
      bytes,
      release: () => {
        if (!held) return;
        held = false;
        this.reservedBytes -= bytes;
        for (const cap of caps) {
          const left = (this.holders.get(cap.key) ?? 1) - 1;
          if (left > 0) this.holders.set(cap.key, left);
          else this.holders.delete(cap.key);
        }
      },
    };
  }
}
