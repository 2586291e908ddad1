// The journal keeps a path as sent, escapes included (a relay's endpoint is `orders%2Fv0%2Forders`), but its `path`
// filter arrives decoded by the query parser: `?path=/…/call/orders%2Fv0%2Forders` read `/…/call/orders/v0/orders`
// and found nothing, so such a path could only be found with its `%` escaped again (`%252F`).
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { channels, ORDERS, ORDERS_QUERY, relayPath } from '../channels/support.js';

async function listed(t: Awaited<ReturnType<typeof testApp>>, rawQuery: string): Promise<string[]> {
  const res = await request(t.app).get(`/_sandbox/requests?fields=summary&${rawQuery}`).set(t.auth('owner'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as { id: string }[]).map((e) => e.id);
}

describe('the journal path filter reads an escaped path however it is spelled', () => {
  it('When a relayed call is journaled, then ?path= finds it typed with %2F, escaped again, or decoded, exact or as a prefix', async () => {
    const t = await testApp();
    const path = relayPath(channels.connected, ORDERS);
    await request(t.app).get(path).query(ORDERS_QUERY).set(t.auth('owner')).set('X-Request-Id', 'relayed').expect(200);
    const spellings = [
      `path=${path}`,
      `path=${encodeURIComponent(path)}`,
      `path=${path.replace(ORDERS, 'orders/v0/orders')}`,
      `path=${path.replace(ORDERS, 'orders%2Fv0*')}`,
      `path=${encodeURIComponent(path.replace(ORDERS, 'orders%2Fv0*'))}`,
    ];
    for (const spelling of spellings) expect(await listed(t, spelling), spelling).toEqual(['relayed']);
  });

  it('When a path with an escaped space is journaled, then ?path= finds it as typed and not a path it does not start with', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/products/abc%20def').set(t.auth('owner')).set('X-Request-Id', 'spaced').expect(404);
    expect(await listed(t, 'path=/2024-09/products/abc%20def')).toEqual(['spaced']);
    expect(await listed(t, 'path=/2024-09/products/abc%2520def')).toEqual(['spaced']);
    expect(await listed(t, 'path=/2024-09/products/abc%20d*')).toEqual(['spaced']);
    expect(await listed(t, 'path=/2024-09/products/abc%20x*')).toEqual([]);
  });

  it('When a segment that does not decode is journaled, then ?path= finds it as typed', async () => {
    const t = await testApp();
    await request(t.app).get('/2024-09/products/%zz').set(t.auth('owner')).set('X-Request-Id', 'undecodable').expect(404);
    expect(await listed(t, 'path=/2024-09/products/%zz')).toEqual(['undecodable']);
    expect(await listed(t, 'path=/2024-09/products/%25zz')).toEqual(['undecodable']);
  });
});
