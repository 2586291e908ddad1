/**
 * A per-key counter over fixed windows: at most `limit` takes per key per window. rate-limiter-flexible's memory
 * limiter reads the wall clock and keeps a timer per key, so a test could not move its time; this counter is the few
 * lines the creation limit needs, with time injected.
 * The whole map is dropped when a window ends, so memory stays bounded by the keys of one window.
 */
export class FixedWindowLimit {
  private windowStart: number;
  private readonly counts = new Map<string, number>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windowStart = now();
  }

  /** Counts one take for the key: undefined when allowed, else the seconds until the window ends. */
  take(key: string): number | undefined {
    const now = this.now();
    if (now - this.windowStart >= this.windowMs) {
      this.windowStart = now - ((now - this.windowStart) % this.windowMs);
      this.counts.clear();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    if (count > this.limit) return Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000));
    this.counts.set(key, count);
    return undefined;
  }
}
