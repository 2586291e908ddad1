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
  private readonly iso = new IsoTimes();

  constructor(private readonly wallClock: () => number = Date.now) {}

  now(): Date {
    return new Date(this.wallClock() + this.offsetMs);
  }

  nowIso(): string {
    return this.iso.of(this.now());
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

/**
 * Date.prototype.toISOString for a caller that formats many instants within the same second (a world's new
 * records, the journal's arrival times): the text up to the second is kept from the last call and the milliseconds
 * appended, the same text toISOString gives. toISOString is a call into the runtime, a visible share of a small
 * write.
 */
export class IsoTimes {
  private second = Number.NaN;
  private prefix = '';

  of(date: Date): string {
    const time = date.getTime();
    const second = Math.floor(time / 1000);
    // An invalid date (NaN) never equals the kept second: toISOString throws its RangeError.
    if (second !== this.second) {
      const text = date.toISOString();
      this.second = second;
      this.prefix = text.slice(0, -4);
      return text;
    }
    const ms = time - second * 1000;
    return `${this.prefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z`;
  }
}
