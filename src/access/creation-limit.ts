// Hosted mode's cap on the workspaces one client address creates per minute, counted by rate-limiter-flexible's
// memory limiter (the same library as the admin throttle): a fixed window of a minute from the address's first
// creation, each key dropped by the library when its window ends, so memory stays bounded by the addresses of one
// minute.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';

/** The window of the creation limit. */
export const CREATION_WINDOW_SECONDS = 60;

/** At most `limit` creations per client address per minute. */
export class CreationLimit {
  private readonly creations: RateLimiterMemory;

  constructor(readonly limit: number) {
    this.creations = new RateLimiterMemory({ points: limit, duration: CREATION_WINDOW_SECONDS, keyPrefix: 'create' });
  }

  /** Counts one creation of the address: undefined when allowed, else the seconds until its window ends. */
  async take(address: string): Promise<number | undefined> {
    try {
      await this.creations.consume(address);
      return undefined;
    } catch (refusal) {
      // The memory limiter rejects with its result (a RateLimiterRes) when the points are spent, never with an Error.
      if (refusal instanceof Error) throw refusal;
      return Math.max(1, Math.ceil((refusal as { msBeforeNext: number }).msBeforeNext / 1000));
    }
  }
}
