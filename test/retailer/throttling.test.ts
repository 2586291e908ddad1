import { describe, expect, it } from 'vitest';
import { takeToken } from '../../src/retailer/rate-limit.js';
import { connectedRetailer, T0, US } from './fixture.js';

describe('retailer token bucket', () => {
  it('When the burst is spent, then the next call is throttled with a retry-after, and a token comes back with time', () => {
    const limit = { rate: 0.5, burst: 2 };
    const a = takeToken(limit, undefined, 0);
    const b = takeToken(limit, a.bucket, 0);
    const c = takeToken(limit, b.bucket, 0);
    expect([a.ok, b.ok, c.ok]).toEqual([true, true, false]);
    expect(!c.ok && c.retryAfterSeconds).toBe(2);
    expect(takeToken(limit, c.bucket, 1000).ok).toBe(false);
    expect(takeToken(limit, c.bucket, 2000).ok).toBe(true);
  });

  it('When the clock goes backwards, then the bucket neither refills nor drains', () => {
    const limit = { rate: 1, burst: 1 };
    const spent = takeToken(limit, undefined, 10_000);
    expect(takeToken(limit, spent.bucket, 5_000).ok).toBe(false);
  });

  it('When catalog search (burst 2) is called three times at once, then the third answers 429 QuotaExceeded; other operations and channels are unaffected', () => {
    const { call, account } = connectedRetailer();
    const q = { marketplaceIds: US, keywords: 'a' };
    expect(call('GET', 'catalog/2022-04-01/items', q).status).toBe(200);
    expect(call('GET', 'catalog/2022-04-01/items', q).status).toBe(200);
    const throttled = call('GET', 'catalog/2022-04-01/items', q);
    expect(throttled.status).toBe(429);
    expect(throttled.failure).toBe('throttled');
    expect(throttled.headers['retry-after']).toBe('1');
    expect(call('GET', `orders/v0/orders/${account.orders[0]!.order_id}`).status).toBe(200);
    expect(call('GET', 'catalog/2022-04-01/items', q, { now: new Date(T0.getTime() + 1000) }).status).toBe(200);
  });

  it('When throttling is switched off, then bursts never answer 429', () => {
    const { call } = connectedRetailer({ rateLimit: () => null });
    for (let i = 0; i < 10; i++) expect(call('GET', 'catalog/2022-04-01/items', { marketplaceIds: US, keywords: 'a' }).status).toBe(200);
  });
});
