/** A token bucket: `burst` tokens, refilled at `rate` tokens per second (the modelled API's usage plans). */
export interface RateLimit {
  rate: number;
  burst: number;
}

/** A bucket's state at a moment. */
export interface Bucket {
  tokens: number;
  at: number;
}

/** The outcome of asking a bucket for one token. */
export type TakeResult = { ok: true; bucket: Bucket } | { ok: false; bucket: Bucket; retryAfterSeconds: number };

/** Refills by elapsed time (never backwards, so a reset clock cannot drain a bucket) and takes a token if one is there. */
export function takeToken(limit: RateLimit, bucket: Bucket | undefined, nowMs: number): TakeResult {
  const start = bucket ?? { tokens: limit.burst, at: nowMs };
  const elapsed = Math.max(0, nowMs - start.at) / 1000;
  const tokens = Math.min(limit.burst, start.tokens + elapsed * limit.rate);
  const refilled = { tokens, at: Math.max(nowMs, start.at) };
  if (tokens >= 1) return { ok: true, bucket: { ...refilled, tokens: tokens - 1 } };
  return { ok: false, bucket: refilled, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / limit.rate)) };
}

/**
 * Buckets per channel and retailer operation, in memory: throttling is transient, so a restart refilling every
 * bucket is what the real service does too, and it keeps read-only relay calls from writing to the store.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  take(channelId: string, operation: string, limit: RateLimit, now: Date): TakeResult {
    const key = `${channelId} ${operation}`;
    const result = takeToken(limit, this.buckets.get(key), now.getTime());
    this.buckets.set(key, result.bucket);
    return result;
  }

  forgetChannel(channelId: string): void {
    for (const key of this.buckets.keys()) if (key.startsWith(`${channelId} `)) this.buckets.delete(key);
  }

  clear(): void {
    this.buckets.clear();
  }
}
