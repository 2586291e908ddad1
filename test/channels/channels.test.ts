import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aChannel } from '../helpers/builders.js';
import { channels, connect, MISSING_CHANNEL } from './support.js';
import { REVOCABLE_CHANNEL_ID, SPARE_CHANNEL_ID } from '../../src/areas/spares/fixture-ids.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});

const channelPath = (id: string) => `/2024-09/channels/${id}`;

describe('listChannels', () => {
  it("When the owner lists the demo merchant's channels, then the seeded channels come back (the demo pair, then the spares the delete and revoke examples name), without secrets", async () => {
    const res = await request(t.app).get('/2024-09/channels').query({ merchant_id: demo.merchant }).set(t.auth('owner'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([channels.connected, channels.unconnected, SPARE_CHANNEL_ID, REVOCABLE_CHANNEL_ID]);
    expect(res.body.data[0]).toMatchObject({ connected: true, marketplace_id: 'ATVPDKIKX0DER', type: 'retailer' });
    expect(res.body.data[1]).toMatchObject({ connected: false, marketplace_id: null, access_token_expires_at: null });
    expect(res.body.meta).toMatchObject({ total: 4, current_page: 1 });
  });

  it('When q and type filter, then only matching names come back (case-insensitive)', async () => {
    const res = await request(t.app).get('/2024-09/channels').query({ merchant_id: demo.merchant, q: 'ca STORE', type: 'retailer' }).set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((c: { id: string }) => c.id)).toEqual([channels.unconnected]);
  });

  it('When there is no token, then 401', async () => {
    expect((await request(t.app).get('/2024-09/channels').query({ merchant_id: demo.merchant })).status).toBe(401);
  });

  it('When the caller is not a member of the merchant, then 403', async () => {
    expect((await request(t.app).get('/2024-09/channels').query({ merchant_id: demo.merchant }).set(t.auth('rival'))).status).toBe(403);
  });

  it('When the merchant does not exist, then 404', async () => {
    expect((await request(t.app).get('/2024-09/channels').query({ merchant_id: MISSING_CHANNEL }).set(t.auth('owner'))).status).toBe(404);
  });

  it('When merchant_id is missing or the type is unknown, then 422 naming the field', async () => {
    const missing = await request(t.app).get('/2024-09/channels').set(t.auth('owner'));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toHaveProperty('merchant_id');
    const badType = await request(t.app).get('/2024-09/channels').query({ merchant_id: demo.merchant, type: 'shop' }).set(t.auth('owner'));
    expect(badType.status).toBe(422);
    expect(badType.body.errors).toHaveProperty('type');
  });
});

describe('createChannel', () => {
  const body = { name: 'Demo Outfitters EU store', merchant_id: demo.merchant, type: 'retailer' };

  it('When a member creates a channel, then 200 with an unconnected channel that get serves', async () => {
    const res = await request(t.app).post('/2024-09/channels').set(t.auth('member')).send(body);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: body.name, merchant_id: demo.merchant, connected: false, marketplace_id: null });
    expect((await request(t.app).get(channelPath(res.body.data.id)).set(t.auth('owner'))).status).toBe(200);
  });

  it('When there is no token, then 401', async () => {
    expect((await request(t.app).post('/2024-09/channels').send(body)).status).toBe(401);
  });

  it('When the caller is not a member of the merchant, then 403 and nothing is created', async () => {
    const before = t.store.channels.size;
    expect((await request(t.app).post('/2024-09/channels').set(t.auth('outsider')).send(body)).status).toBe(403);
    expect(t.store.channels.size).toBe(before);
  });

  it('When the merchant does not exist, then 404', async () => {
    expect(
      (
        await request(t.app)
          .post('/2024-09/channels')
          .set(t.auth('owner'))
          .send({ ...body, merchant_id: MISSING_CHANNEL })
      ).status,
    ).toBe(404);
  });

  it('When the body is incomplete, has an unknown type or an unknown field, then 422 naming each field', async () => {
    const res = await request(t.app).post('/2024-09/channels').set(t.auth('owner')).send({ merchant_id: demo.merchant, type: 'shop', colour: 'red' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['name', 'type']));
  });
});

describe('getChannel, updateChannel, deleteChannel', () => {
  it('When the owner gets the connected channel, then 200 with connected, marketplace and expiry but no tokens', async () => {
    const res = await request(t.app).get(channelPath(channels.connected)).set(t.auth('owner'));
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual([
      'access_token_expires_at',
      'connected',
      'created_at',
      'id',
      'marketplace_id',
      'merchant_id',
      'name',
      'type',
      'updated_at',
    ]);
  });

  it('When the channel is renamed, then 200 with the new name and a later updated_at', async () => {
    t.clock.advance(1000);
    const res = await request(t.app).put(channelPath(channels.connected)).set(t.auth('member')).send({ name: 'Demo North America' });
    expect(res.status).toBe(200);
    expect(res.body.data.name).toBe('Demo North America');
    expect(res.body.data.updated_at > res.body.data.created_at).toBe(true);
  });

  it('When a channel is PUT back exactly as it was read, then 200 and its updated_at stays what it was', async () => {
    const read = (await request(t.app).get(channelPath(channels.connected)).set(t.auth('owner'))).body.data;
    t.clock.advance(1000);
    const res = await request(t.app).put(channelPath(channels.connected)).set(t.auth('owner')).send(read);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(read);
  });

  it('When the new name is empty or the type is not one the contract names, then 422', async () => {
    expect((await request(t.app).put(channelPath(channels.connected)).set(t.auth('owner')).send({ name: '' })).status).toBe(422);
    expect((await request(t.app).put(channelPath(channels.connected)).set(t.auth('owner')).send({ name: 'x', type: 'marketplace' })).status).toBe(422);
  });

  it('When the channel is deleted, then 204 with an empty body, and it is gone', async () => {
    const channel = await aChannel(t);
    const res = await request(t.app).delete(channelPath(channel.id)).set(t.auth('member'));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await request(t.app).get(channelPath(channel.id)).set(t.auth('owner'))).status).toBe(404);
  });

  for (const [method, send] of [
    ['get', undefined],
    ['put', { name: 'x' }],
    ['delete', undefined],
  ] as const) {
    it(`When ${method.toUpperCase()} has no token, then 401; another merchant's channel, 403; an unknown or malformed id, 404`, async () => {
      const call = (id: string, who?: 'rival' | 'owner') => {
        let r = request(t.app)[method](channelPath(id));
        if (who) r = r.set(t.auth(who));
        return send ? r.send(send) : r;
      };
      expect((await call(channels.connected)).status).toBe(401);
      expect((await call(channels.connected, 'rival')).status).toBe(403);
      expect((await call(MISSING_CHANNEL, 'owner')).status).toBe(404);
      expect((await call('not-a-uuid', 'owner')).status).toBe(404);
      expect(t.store.channels.get(channels.connected)?.name).toBe('Demo Outfitters US store');
    });
  }
});

describe('storeChannelConnectionData', () => {
  const path = `/2024-09/channels/retailer/${channels.unconnected}/connection-data`;

  it('When connection data is stored, then 200 with the channel connected and the expiry given, and no token in the answer', async () => {
    const res = await connect(t, channels.unconnected, { access_token_expires_at: '2030-01-01T00:00:00Z', marketplace_id: 'A2EUQ1WTGCTBG2' });
    expect(res.body.data).toMatchObject({
      id: channels.unconnected,
      connected: true,
      marketplace_id: 'A2EUQ1WTGCTBG2',
      access_token_expires_at: '2030-01-01T00:00:00.000Z',
    });
    expect(JSON.stringify(res.body)).not.toContain('Atza|');
    expect(t.store.channel_connections.get(channels.unconnected)?.access_token).toBe('Atza|client-access-1234567890');
  });

  it('When expiry and marketplace are left out, then the token counts for one hour on the default marketplace', async () => {
    const res = await request(t.app).post(path).set(t.auth('owner')).send({ access_token: 'a', refresh_token: 'r' });
    expect(res.status).toBe(200);
    expect(res.body.data.marketplace_id).toBe('ATVPDKIKX0DER');
    expect(Date.parse(res.body.data.access_token_expires_at) - t.clock.now().getTime()).toBeGreaterThan(3_500_000);
  });

  it('When there is no token, then 401; a non-member, 403; an unknown channel, 404', async () => {
    const body = { access_token: 'a', refresh_token: 'r' };
    expect((await request(t.app).post(path).send(body)).status).toBe(401);
    expect((await request(t.app).post(path).set(t.auth('rival')).send(body)).status).toBe(403);
    expect((await request(t.app).post(`/2024-09/channels/retailer/${MISSING_CHANNEL}/connection-data`).set(t.auth('owner')).send(body)).status).toBe(404);
    expect(t.store.channel_connections.has(channels.unconnected)).toBe(false);
  });

  it('When a token is missing, the expiry is not a date-time or a field is unknown, then 422 and nothing is stored', async () => {
    const res = await request(t.app).post(path).set(t.auth('owner')).send({ access_token: 'a', access_token_expires_at: 'tomorrow', scope: 'all' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(expect.arrayContaining(['refresh_token', 'access_token_expires_at']));
    expect(t.store.channel_connections.has(channels.unconnected)).toBe(false);
  });
});

describe('getChannelAuthUrl', () => {
  const path = (id: string) => `/2024-09/channels/retailer/${id}/get-auth-url`;

  it("When a member asks, then 200 with an absolute URL to the sandbox's own consent page and a fresh state each time", async () => {
    const first = await request(t.app).get(path(channels.unconnected)).set(t.auth('member'));
    const second = await request(t.app).get(path(channels.unconnected)).set(t.auth('member'));
    expect(first.status).toBe(200);
    const url = new URL(first.body.url);
    expect(url.pathname).toBe('/_retailer/authorize');
    expect(url.origin).toMatch(/^http:\/\/127\.0\.0\.1(:\d+)?$/);
    expect(url.searchParams.get('state')).not.toBe(new URL(second.body.url).searchParams.get('state'));
    const record = t.store.retailer_authorizations.get(url.searchParams.get('state')!);
    expect(record).toMatchObject({ channel_id: channels.unconnected, user_id: demo.member.id });
  });

  it('When there is no token, then 401; a non-member, 403; an unknown channel, 404', async () => {
    expect((await request(t.app).get(path(channels.unconnected))).status).toBe(401);
    expect((await request(t.app).get(path(channels.unconnected)).set(t.auth('rival'))).status).toBe(403);
    expect((await request(t.app).get(path(MISSING_CHANNEL)).set(t.auth('owner'))).status).toBe(404);
  });
});

describe('searchChannelCatalog', () => {
  const path = (id: string) => `/2024-09/channels/${id}/catalog-search`;

  it('When the connected channel searches by keywords, then 200 with paginated items carrying identifiers and image urls only', async () => {
    const all = await request(t.app).get(path(channels.connected)).query({ per_page: 100 }).set(t.auth('owner'));
    expect(all.status).toBe(200);
    expect(all.body.meta.total).toBeGreaterThan(0);
    const item = all.body.data[0];
    for (const field of ['upc', 'ean', 'gtin', 'isbn']) expect(item).not.toHaveProperty(field);
    const word = item.title.split(/\s+/).find((w: string) => w.length > 3) ?? item.title;
    const byKeyword = await request(t.app).get(path(channels.connected)).query({ keywords: word }).set(t.auth('owner'));
    expect(byKeyword.status).toBe(200);
    expect(byKeyword.body.data.map((i: { asin: string }) => i.asin)).toContain(item.asin);
  });

  it('When searching by identifier, then the item with that identifier comes back', async () => {
    const all = await request(t.app).get(path(channels.connected)).query({ per_page: 100 }).set(t.auth('owner'));
    const withId = all.body.data.find((i: { identifiers: unknown[] }) => i.identifiers.length > 0);
    const { type, value } = withId.identifiers[0];
    const res = await request(t.app).get(path(channels.connected)).query({ identifier: value, identifier_type: type }).set(t.auth('owner'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((i: { asin: string }) => i.asin)).toContain(withId.asin);
  });

  it('When the channel has no connection data, then 409 not_connected; after a revocation, 409 authorization_required', async () => {
    const notConnected = await request(t.app).get(path(channels.unconnected)).set(t.auth('owner'));
    expect(notConnected.status).toBe(409);
    expect(notConnected.body.reason).toBe('not_connected');
    expect((await request(t.app).post(`/_sandbox/channels/${channels.connected}/revoke-authorization`)).status).toBe(204);
    const revoked = await request(t.app).get(path(channels.connected)).set(t.auth('owner'));
    expect(revoked.status).toBe(409);
    expect(revoked.body).toEqual({ message: expect.stringMatching(/authoriz/), reason: 'authorization_required' });
  });

  it('When the seeded token has expired, then the search refreshes it and stores the new expiry', async () => {
    const before = t.store.channel_connections.get(channels.connected)!;
    expect((await request(t.app).get(path(channels.connected)).set(t.auth('owner'))).status).toBe(200);
    const after = t.store.channel_connections.get(channels.connected)!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(Date.parse(after.access_token_expires_at)).toBeGreaterThan(t.clock.now().getTime());
  });

  it('When there is no token, then 401; a non-member, 403; an unknown channel, 404; a bad identifier_type, 422', async () => {
    expect((await request(t.app).get(path(channels.connected))).status).toBe(401);
    expect((await request(t.app).get(path(channels.connected)).set(t.auth('rival'))).status).toBe(403);
    expect((await request(t.app).get(path(MISSING_CHANNEL)).set(t.auth('owner'))).status).toBe(404);
    const bad = await request(t.app).get(path(channels.connected)).query({ identifier_type: 'SKU', per_page: 500 }).set(t.auth('owner'));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(expect.arrayContaining(['identifier_type', 'per_page']));
  });
});

describe('sandbox control plane for channels', () => {
  it('When the call log of an unknown channel is asked for, then 404; a bad page, 422', async () => {
    expect((await request(t.app).get(`/_sandbox/channels/${MISSING_CHANNEL}/calls`)).status).toBe(404);
    expect((await request(t.app).get(`/_sandbox/channels/${channels.connected}/calls`).query({ page: 0 })).status).toBe(422);
  });

  it('When a channel has made no call, then its log is an empty page', async () => {
    const res = await request(t.app).get(`/_sandbox/channels/${channels.unconnected}/calls`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], meta: { total: 0 } });
  });

  it('When revoking an unknown channel, then 404', async () => {
    expect((await request(t.app).post(`/_sandbox/channels/${MISSING_CHANNEL}/revoke-authorization`)).status).toBe(404);
  });
});
