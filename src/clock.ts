/**
 * The one source of time for a world. It runs with the wall clock plus an offset, so the sandbox clock control
 * can move time-dependent state (token expiry, scraping attempts, imports, series) forward without waiting.
 */
/**
 * How far ahead of the wall clock a world's clock may run in all: a hundred 366-day years. Every date the sandbox
 * shows stays a four-digit-year ISO date (a contract `date-time`), and the clock's arithmetic stays exact.
 */
export const MAX_CLOCK_OFFSET_DAYS = 36_600;
export const MAX_CLOCK_OFFSET_MS = MAX_CLOCK_OFFSET_DAYS * 86_400_000;

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
    if (!this.canAdvance(ms)) throw new RangeError(`a clock runs at most ${MAX_CLOCK_OFFSET_DAYS} days ahead`);
    this.offsetMs += ms;
  }

  /** Whether moving forward by `ms` keeps the clock within MAX_CLOCK_OFFSET_MS of the wall clock. */
  canAdvance(ms: number): boolean {
    return this.offsetMs + ms <= MAX_CLOCK_OFFSET_MS;
  }

  reset(): void {
    this.offsetMs = 0;
  }
}
