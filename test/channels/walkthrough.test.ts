import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { serveOnLoopback, type LoopbackServer } from '../helpers/browser.js';
import { testApp } from '../helpers/app.js';

// The README walk-through (specification section 1) over real HTTP, as curl would run it.
let server: LoopbackServer;
beforeEach(async () => {
  server = await serveOnLoopback((await testApp()).app);
});
afterEach(async () => {
  await server.close();
});

async function call(method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(server.url + path, {
    method,
    redirect: 'manual',
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined };
}

/** Steps 1-3: an API token, a merchant, a channel. */
async function merchantWithChannel() {
  const user = await call('POST', '/_sandbox/users', undefined, { name: 'Ada Integrator' });
  expect(user.status).toBe(201);
  const token = user.json.data.token as string;
  const merchant = await call('POST', '/2024-09/merchants', token, { name: 'Ada Goods' });
  expect(merchant.status).toBe(201);
  const channel = await call('POST', '/2024-09/channels', token, { name: 'Ada Goods US store', merchant_id: merchant.json.data.id, type: 'retailer' });
  expect(channel.status).toBe(200);
  expect(channel.json.data.connected).toBe(false);
  return { token, channelId: channel.json.data.id as string };
}

async function relayOrders(token: string, channelId: string) {
  const res = await call(
    'GET',
    `/2024-09/channels/retailer/${channelId}/call/orders/v0/orders?MarketplaceIds=ATVPDKIKX0DER&CreatedAfter=2024-08-01T00:00:00Z`,
    token,
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('x-retailer-status')).toBe('200');
  expect(JSON.parse(res.json.response).payload.Orders.length).toBeGreaterThan(0);
}

describe('README walk-through over HTTP', () => {
  it('When a new user creates a merchant and a channel, stores connection data and relays a GET, then every step succeeds', async () => {
    const { token, channelId } = await merchantWithChannel();
    const stored = await call('POST', `/2024-09/channels/retailer/${channelId}/connection-data`, token, {
      access_token: 'Atza|my-access-token',
      access_token_expires_at: '2099-01-01T00:00:00Z',
      refresh_token: 'Atzr|my-refresh-token',
      marketplace_id: 'ATVPDKIKX0DER',
    });
    expect(stored.status).toBe(200);
    expect(stored.json.data.connected).toBe(true);
    expect(stored.text).not.toContain('my-access-token');
    await relayOrders(token, channelId);
    const calls = await call('GET', `/_sandbox/channels/${channelId}/calls`);
    expect(calls.json.data[0]).toMatchObject({ method: 'GET', endpoint: 'orders/v0/orders', status: 200 });
  });

  it('When the channel is authorized through the url instead (form post, redirect, callback), then the relay works too', async () => {
    const { token, channelId } = await merchantWithChannel();
    const auth = await call('GET', `/2024-09/channels/retailer/${channelId}/get-auth-url`, token);
    expect(auth.json.url.startsWith(server.url)).toBe(true);
    const consent = await fetch(auth.json.url);
    const html = await consent.text();
    expect(html).toContain('Ada Goods US store');
    const state = /name="state" value="([^"]+)"/.exec(html)![1];
    const decided = await fetch(`${server.url}/_retailer/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state, decision: 'approve' }),
    });
    expect(decided.status).toBe(302);
    const done = await fetch(decided.headers.get('location')!);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Channel connected');
    expect((await call('GET', `/2024-09/channels/${channelId}`, token)).json.data.connected).toBe(true);
    await relayOrders(token, channelId);
  });
});
