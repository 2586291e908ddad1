import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { retailerOf } from '../../src/areas/channels/retailer-instance.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { channels, ORDERS, ORDERS_QUERY, relayPath } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

/** Every stored record that still names the channel, collection by collection. */
function leftovers(channelId: string): Record<string, number> {
  const counts: Record<string, number> = {
    channels: t.store.channels.has(channelId) ? 1 : 0,
    channel_connections: t.store.channel_connections.has(channelId) ? 1 : 0,
    channel_calls: t.store.channel_calls.where('channel_id', channelId).length,
    retailer_states: t.store.retailer_states.has(channelId) ? 1 : 0,
    retailer_grants: t.store.retailer_grants.has(channelId) ? 1 : 0,
    retailer_authorizations: t.store.retailer_authorizations.where('channel_id', channelId).length,
  };
  return Object.fromEntries(Object.entries(counts).filter(([, n]) => n > 0));
}

/** Leaves a trace of every kind on the channel: calls, a listing change at the retailer, a pending authorization. */
async function useChannel(channelId: string) {
  const owner = t.auth('owner');
  await request(t.app).get(relayPath(channelId, ORDERS)).query(ORDERS_QUERY).set(owner).expect(200);
  const sellerId = retailerOf(t.world).account(channelId).seller_id;
  await request(t.app)
    .put(relayPath(channelId, `listings/2021-08-01/items/${sellerId}/CASCADE-1`))
    .query({ marketplaceIds: 'ATVPDKIKX0DER' })
    .set(owner)
    .send({ productType: 'SHOES', requirements: 'LISTING', attributes: { item_name: [{ value: 'Cascade shoe' }] } })
    .expect(200);
  await request(t.app).get(`/2024-09/channels/retailer/${channelId}/get-auth-url`).set(owner).expect(200);
}

describe('channel deletion cascade', () => {
  it('When a used channel is deleted, then its connection data, retailer state, authorizations and call log go with it', async () => {
    await useChannel(channels.connected);
    expect(Object.keys(leftovers(channels.connected)).sort()).toEqual([
      'channel_calls',
      'channel_connections',
      'channels',
      'retailer_authorizations',
      'retailer_grants',
      'retailer_states',
    ]);
    await request(t.app).delete(`/2024-09/channels/${channels.connected}`).set(t.auth('owner')).expect(204);
    expect(leftovers(channels.connected)).toEqual({});
  });

  it('When a channel is deleted, then its get, relay (both forms), catalog search, connection data, auth url and call log answer 404', async () => {
    await useChannel(channels.connected);
    await request(t.app).delete(`/2024-09/channels/${channels.connected}`).set(t.auth('owner')).expect(204);
    const owner = t.auth('owner');
    const id = channels.connected;
    const answers = [
      await request(t.app).get(`/2024-09/channels/${id}`).set(owner),
      await request(t.app).get(relayPath(id, ORDERS)).query(ORDERS_QUERY).set(owner),
      await request(t.app).get(relayPath(id, 'orders/v0/orders')).query(ORDERS_QUERY).set(owner),
      await request(t.app).post(relayPath(id, 'feeds/2021-06-30/feeds')).set(owner).send({}),
      await request(t.app).get(`/2024-09/channels/${id}/catalog-search`).set(owner),
      await request(t.app).post(`/2024-09/channels/retailer/${id}/connection-data`).set(owner).send({ access_token: 'a', refresh_token: 'r' }),
      await request(t.app).get(`/2024-09/channels/retailer/${id}/get-auth-url`).set(owner),
      await request(t.app).get(`/_sandbox/channels/${id}/calls`),
      await request(t.app).delete(`/2024-09/channels/${id}`).set(owner),
    ];
    expect(answers.map((r) => r.status)).toEqual([404, 404, 404, 404, 404, 404, 404, 404, 404]);
    expect(leftovers(id)).toEqual({});
  });

  it('When a channel is deleted, then other channels keep their data', async () => {
    await useChannel(channels.connected);
    await request(t.app).get(`/2024-09/channels/retailer/${channels.unconnected}/get-auth-url`).set(t.auth('owner')).expect(200);
    await request(t.app).delete(`/2024-09/channels/${channels.connected}`).set(t.auth('owner')).expect(204);
    expect(leftovers(channels.unconnected)).toEqual({ channels: 1, retailer_authorizations: 1 });
    expect(leftovers(channels.rival)).toMatchObject({ channels: 1, channel_connections: 1, retailer_grants: 1 });
  });

  it("When the merchant is deleted, then each of its channels goes the same way and other merchants' channels stay", async () => {
    await useChannel(channels.connected);
    await request(t.app).get(`/2024-09/channels/retailer/${channels.unconnected}/get-auth-url`).set(t.auth('owner')).expect(200);
    await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).expect(204);
    expect(leftovers(channels.connected)).toEqual({});
    expect(leftovers(channels.unconnected)).toEqual({});
    expect(t.store.channels.where('merchant_id', demo.merchant)).toEqual([]);
    expect(t.store.channels.has(channels.rival)).toBe(true);
    expect((await request(t.app).get(`/2024-09/channels/${channels.connected}`).set(t.auth('owner'))).status).toBe(404);
    expect(t.errors).toEqual([]);
  });
});
