/**
 * The one source of time for a world. It runs with the wall clock plus an offset, so the sandbox clock control
 * can move time-dependent state (token expiry, scraping attempts, imports, series) forward without waiting.
 */
export class Clock {
  private offsetMs = 0;

  constructor(private readonly wallClock: () => number = Date.now) {}

  now(): Date {
    return new Date(this.wallClock() + this.offsetMs);
  }

  nowIso(): string {
    return this.now().toISOString();
  }

  /** How far this clock runs ahead of the wall clock. */
  get offset(): number {
    return this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('a clock only moves forward');
    this.offsetMs += ms;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
