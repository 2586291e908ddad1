// Hosted mode's throttle of failed admin attempts: a client address that sent `limit` control-plane tokens that
// are neither the admin token nor a live workspace's is answered 429 for the rest of the window, before its next
// token is compared. 128 random bits cannot be guessed anyway; the throttle keeps a guesser from costing the
// process or filling the log, and tells an operator's typo apart from a scan.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import { tooManyRequests } from '../http/errors.js';

/** Failed admin attempts one client address may make per window, unless ADMIN_ATTEMPTS_PER_HOUR says otherwise. */
export const DEFAULT_ADMIN_ATTEMPTS = 20;
/** The window of the throttle, from an address's first failed attempt. */
export const ADMIN_ATTEMPTS_WINDOW_SECONDS = 3600;

/** Failed admin attempts per client address, counted over a fixed window from the first (rate-limiter-flexible). */
export class AdminAttempts {
  private readonly failures: RateLimiterMemory;

  constructor(readonly limit: number) {
    this.failures = new RateLimiterMemory({ points: limit, duration: ADMIN_ATTEMPTS_WINDOW_SECONDS, keyPrefix: 'admin' });
  }

  /** 429 with Retry-After when the address has used up its failed attempts this window. */
  async refuseWhenSpent(address: string): Promise<void> {
    const spent = await this.failures.get(address);
    if (spent && spent.consumedPoints >= this.limit) {
      tooManyRequests(
        `This address sent ${this.limit} wrong control-plane tokens within the hour; retry in ${Math.ceil(spent.msBeforeNext / 1000)} seconds.`,
        spent.msBeforeNext / 1000,
      );
    }
  }

  /** Counts one failed attempt of the address. */
  async failed(address: string): Promise<void> {
    await this.failures.penalty(address);
  }
}
