import net from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { relayTarget, RETAILER_QUERY } from '../../src/areas/channels/relay-target.js';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { encodePageToken } from '../../src/retailer/page-token.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { channels, connect, MISSING_CHANNEL, ORDERS, ORDERS_QUERY, relayPath } from './support.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

const listingBody = (quantity: number) => ({
  productType: 'SHOES',
  requirements: 'LISTING',
  attributes: {
    item_name: [{ value: 'Trail Runner 2' }],
    purchasable_offer: [{ currency: 'USD', our_price: [{ schedule: [{ value_with_tax: 89.99 }] }] }],
    fulfillment_availability: [{ fulfillment_channel_code: 'DEFAULT', quantity }],
  },
});

const sellerId = () => t.runtime.resourcesOf(t.world).retailer().account(channels.connected).seller_id;
const listing = (sku: string) => `listings%2F2021-08-01%2Fitems%2F${sellerId()}%2F${sku}`;
const calls = async (channel: string) => (await request(t.app).get(`/_sandbox/channels/${channel}/calls`).query({ per_page: 100 })).body.data;

/** One successful relay per method, against the endpoint that method is for. */
const happy: Record<Method, () => { endpoint: string; query: Record<string, string>; body?: object; retailerStatus: number }> = {
  get: () => ({ endpoint: ORDERS, query: ORDERS_QUERY, retailerStatus: 200 }),
  post: () => ({
    endpoint: 'feeds%2F2021-06-30%2Ffeeds',
    query: {},
    body: { feedType: 'POST_PRODUCT_DATA', marketplaceIds: ['ATVPDKIKX0DER'], inputFeedDocumentId: 'doc-1' },
    retailerStatus: 202,
  }),
  put: () => ({ endpoint: listing('NEW-SKU-1'), query: { marketplaceIds: 'ATVPDKIKX0DER' }, body: listingBody(25), retailerStatus: 200 }),
  patch: () => ({
    endpoint: listing(t.runtime.resourcesOf(t.world).retailer().account(channels.connected).listings[0]!.sku),
    query: { marketplaceIds: 'ATVPDKIKX0DER' },
    body: {
      productType: 'SHOES',
      patches: [{ op: 'replace', path: '/attributes/fulfillment_availability', value: [{ fulfillment_channel_code: 'DEFAULT', quantity: 7 }] }],
    },
    retailerStatus: 200,
  }),
  delete: () => ({
    endpoint: listing(t.runtime.resourcesOf(t.world).retailer().account(channels.connected).listings[1]!.sku),
    query: { marketplaceIds: 'ATVPDKIKX0DER' },
    retailerStatus: 200,
  }),
};

function relay(method: Method, channel: string, endpoint: string, opts: { query?: object; body?: object; who?: 'owner' | 'rival' | null } = {}) {
  let r = request(t.app)
    [method](relayPath(channel, endpoint))
    .query(opts.query ?? {});
  if (opts.who !== null) r = r.set(t.auth(opts.who ?? 'owner'));
  return opts.body ? r.send(opts.body) : r;
}

describe('relay: every documented status of every method', () => {
  for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
    it(`When ${method.toUpperCase()} is relayed on the connected channel, then 200 { response } with the retailer status in X-Retailer-Status`, async () => {
      const { endpoint, query, body, retailerStatus } = happy[method]();
      const res = await relay(method, channels.connected, endpoint, { query, body });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['response']);
      expect(res.headers['x-retailer-status']).toBe(String(retailerStatus));
      expect(() => JSON.parse(res.body.response)).not.toThrow();
      const [logged] = await calls(channels.connected);
      expect(logged).toMatchObject({ method: method.toUpperCase(), endpoint: decodeURIComponent(endpoint), status: 200, retailer_status: retailerStatus });
    });

    it(`When ${method.toUpperCase()} has no token, then 401; another merchant's channel, 403; an unknown or deleted channel, 404`, async () => {
      expect((await relay(method, channels.connected, ORDERS, { who: null })).status).toBe(401);
      expect((await relay(method, channels.connected, ORDERS, { who: 'rival' })).status).toBe(403);
      expect((await relay(method, MISSING_CHANNEL, ORDERS)).status).toBe(404);
      expect((await relay(method, 'not-a-uuid', ORDERS)).status).toBe(404);
      expect(await calls(channels.connected)).toEqual([]);
    });

    it(`When ${method.toUpperCase()} goes through a channel without connection data, then 409 not_connected, and the call is logged`, async () => {
      const res = await relay(method, channels.unconnected, ORDERS);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: expect.stringMatching(/no connection data/), reason: 'not_connected' });
      expect(await calls(channels.unconnected)).toEqual([expect.objectContaining({ status: 409, retailer_status: null })]);
    });

    it(`When ${method.toUpperCase()} names an endpoint that leaves the retailer's API, then 422 naming endpoint`, async () => {
      const res = await relay(method, channels.connected, 'orders%2F..%2F..%2Fadmin');
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('endpoint');
    });
  }

  it('When the retailer refuses the refresh token (authorization revoked at the retailer), then 409 authorization_required, logged', async () => {
    await request(t.app).post(`/_sandbox/channels/${channels.connected}/revoke-authorization`).expect(204);
    const res = await relay('get', channels.connected, ORDERS, { query: ORDERS_QUERY });
    expect(res.status).toBe(409);
    expect(res.body.reason).toBe('authorization_required');
    expect(res.body.message).toMatch(/needs authorization again/);
    expect(await calls(channels.connected)).toEqual([expect.objectContaining({ status: 409, retailer_status: null })]);
  });

  it('When a relay body is not a JSON object, then 422', async () => {
    const res = await request(t.app).post(relayPath(channels.connected, 'feeds%2F2021-06-30%2Ffeeds')).set(t.auth('owner')).send([1, 2]);
    expect(res.status).toBe(422);
  });

  it('When nothing unexpected happened, then the app logged no error', async () => {
    await relay('get', channels.connected, ORDERS, { query: ORDERS_QUERY });
    expect(t.errors).toEqual([]);
  });
});

describe('relay: both endpoint forms', () => {
  it('When the endpoint is sent raw or percent-encoded, then both reach the same retailer operation with the same answer', async () => {
    const encoded = await relay('get', channels.connected, ORDERS, { query: ORDERS_QUERY });
    const raw = await relay('get', channels.connected, 'orders/v0/orders', { query: ORDERS_QUERY });
    expect(raw.status).toBe(200);
    expect(JSON.parse(raw.body.response).payload.Orders).toEqual(JSON.parse(encoded.body.response).payload.Orders);
    const logged = await calls(channels.connected);
    expect(logged.map((c: { endpoint: string }) => c.endpoint)).toEqual(['orders/v0/orders', 'orders/v0/orders']);
  });

  it('When a listing is PUT in the raw form, then a GET in the encoded form sees it, and DELETE removes it', async () => {
    const raw = `listings/2021-08-01/items/${sellerId()}/RAW-SKU-1`;
    const put = await relay('put', channels.connected, raw, { query: { marketplaceIds: 'ATVPDKIKX0DER' }, body: listingBody(12) });
    expect(put.status).toBe(200);
    expect(JSON.parse(put.body.response)).toMatchObject({ sku: 'RAW-SKU-1', status: 'ACCEPTED' });
    const got = await relay('get', channels.connected, listing('RAW-SKU-1'), { query: { marketplaceIds: 'ATVPDKIKX0DER' } });
    expect(JSON.parse(got.body.response).fulfillmentAvailability[0].quantity).toBe(12);
    expect((await relay('delete', channels.connected, raw, { query: { marketplaceIds: 'ATVPDKIKX0DER' } })).headers['x-retailer-status']).toBe('200');
    const gone = await relay('get', channels.connected, raw, { query: { marketplaceIds: 'ATVPDKIKX0DER' } });
    expect(gone.status).toBe(200);
    expect(gone.headers['x-retailer-status']).toBe('404');
  });

  it('When the query string carries paging, then it is relayed as sent and NextToken pages on', async () => {
    const first = await relay('get', channels.connected, 'orders/v0/orders', { query: { ...ORDERS_QUERY, MaxResultsPerPage: 5 } });
    const payload = JSON.parse(first.body.response).payload;
    expect(payload.Orders).toHaveLength(5);
    expect(payload.NextToken).toEqual(expect.any(String));
    const next = await relay('get', channels.connected, 'orders/v0/orders', { query: { MarketplaceIds: 'ATVPDKIKX0DER', NextToken: payload.NextToken } });
    expect(JSON.parse(next.body.response).payload.Orders[0].AmazonOrderId).not.toBe(payload.Orders[0].AmazonOrderId);
    const [logged] = await calls(channels.connected);
    expect(logged.query).toContain('NextToken=');
  });

  for (const [form, endpoint] of [
    ['raw, with an empty segment', 'orders//v0/orders'],
    ['raw, with a trailing slash', 'orders/v0/orders/'],
    ['raw, one segment and a trailing slash', 'orders/'],
    ['raw, with a dot-dot segment', 'orders/v0/../../x'],
    ['raw, with a scheme', 'http://evil.example/x'],
    ['encoded, with a scheme', 'https%3A%2F%2Fevil.example%2Fx'],
    ['encoded, protocol-relative', '%2F%2Fevil.example%2Fx'],
    ['encoded, with a backslash', 'orders%5Cv0'],
  ] as const) {
    it(`When the endpoint is ${form}, then 422 and nothing is relayed`, async () => {
      const res = await request(t.app).get(relayPath(channels.connected, endpoint)).set(t.auth('owner'));
      expect(res.status).toBe(422);
      expect(res.body.errors).toHaveProperty('endpoint');
      expect(await calls(channels.connected)).toEqual([]);
    });
  }
});

describe('relay: the query string', () => {
  it("When the endpoint carries its own ?query, then it is relayed ahead of the request's query and the log shows both", async () => {
    const res = await relay('get', channels.connected, 'orders%2Fv0%2Forders%3FMarketplaceIds%3DATVPDKIKX0DER', {
      query: { CreatedAfter: '2024-01-01T00:00:00Z', MaxResultsPerPage: 3 },
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-retailer-status']).toBe('200');
    expect(JSON.parse(res.body.response).payload.Orders).toHaveLength(3);
    const [logged] = await calls(channels.connected);
    expect(logged).toMatchObject({
      endpoint: 'orders/v0/orders',
      query: 'MarketplaceIds=ATVPDKIKX0DER&CreatedAfter=2024-01-01T00%3A00%3A00Z&MaxResultsPerPage=3',
    });
  });

  it("When the endpoint's query is empty or only the request has one, then the endpoint is the path alone", async () => {
    const res = await relay('get', channels.connected, 'orders%2Fv0%2Forders%3F', { query: ORDERS_QUERY });
    expect(res.headers['x-retailer-status']).toBe('200');
    expect((await calls(channels.connected))[0]).toMatchObject({ endpoint: 'orders/v0/orders', query: expect.stringMatching(/^MarketplaceIds=/) });
  });

  it("When the endpoint's path part is unsafe or its query has a fragment, then 422 naming endpoint and nothing is relayed", async () => {
    for (const endpoint of [
      'orders%2F..%3FMarketplaceIds%3DX',
      'orders%2Fv0%2F%3Fa%3D1',
      '%3FMarketplaceIds%3DX',
      'orders%3Fa%3D1%23frag',
      'http%3A%2F%2Fevil.example%3Fa%3D1',
    ]) {
      const res = await relay('get', channels.connected, endpoint);
      expect(res.status, endpoint).toBe(422);
      expect(res.body.errors).toHaveProperty('endpoint');
    }
    expect(await calls(channels.connected)).toEqual([]);
  });

  for (const [form, query] of [
    ["deepObject (openapi-fetch's default)", 'retailer_query%5BMarketplaceIds%5D=ATVPDKIKX0DER'],
    ['a JSON value', `retailer_query=${encodeURIComponent('{"MarketplaceIds":"ATVPDKIKX0DER"}')}`],
  ] as const) {
    it(`When the declared retailer_query object arrives as ${form}, then 422 naming retailer_query with the serializer to use, and nothing is relayed`, async () => {
      const res = await request(t.app)
        .get(`${relayPath(channels.connected, ORDERS)}?${query}`)
        .set(t.auth('owner'));
      expect(res.status).toBe(422);
      expect(res.body.errors.retailer_query[0]).toMatch(/style: "form", explode: true/);
      expect(await calls(channels.connected)).toEqual([]);
    });
  }

  it('When a stranger sends a wrapped retailer_query, then 403 comes first', async () => {
    const res = await relay('get', channels.connected, ORDERS, { query: { retailer_query: { MarketplaceIds: 'X' } }, who: 'rival' });
    expect(res.status).toBe(403);
  });

  it("When an endpoint with a query meets a request query, then the path is split off and the endpoint's query comes first", () => {
    const target = relayTarget('orders/v0/orders?x=1', 'http://127.0.0.1/call/orders%2Fv0%2Forders%3Fx%3D1?y=2&y=3');
    expect(target).toEqual({ path: 'orders/v0/orders', rawQuery: 'x=1&y=2&y=3', query: { x: '1', y: ['2', '3'] } });
    expect(relayTarget('orders/v0/orders', 'http://127.0.0.1/call/x')).toEqual({ path: 'orders/v0/orders', rawQuery: '', query: {} });
  });

  it('When a query name repeats, then every value is relayed', async () => {
    await relay('get', channels.connected, 'orders/v0/orders?MarketplaceIds=ATVPDKIKX0DER&OrderStatuses=Shipped&OrderStatuses=Pending');
    expect((await calls(channels.connected))[0].query).toBe('MarketplaceIds=ATVPDKIKX0DER&OrderStatuses=Shipped&OrderStatuses=Pending');
  });
});

describe('relay: what the contract declares', () => {
  const { doc } = loadContract();
  const item = doc.paths['/2024-09/channels/retailer/{channel}/call/{endpoint}'] as Record<
    string,
    { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }
  >;
  const components = doc.components as { parameters: Record<string, Record<string, unknown>>; schemas: Record<string, Record<string, unknown>> };

  it('When the relay path is read, then its query is one free-form object, form style, exploded, named as the handler reads it', () => {
    expect(item.parameters).toContainEqual({ $ref: '#/components/parameters/RetailerQuery' });
    expect(components.parameters.RetailerQuery).toMatchObject({
      name: RETAILER_QUERY,
      in: 'query',
      required: false,
      style: 'form',
      explode: true,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
  });

  it('When the relay methods are read, then POST, PUT and PATCH take a free-form JSON object and the raw form is documented as an alias outside the contract', () => {
    for (const method of ['post', 'put', 'patch']) {
      expect(item[method]!.requestBody!.content['application/json'].schema.$ref, method).toBe('#/components/schemas/RetailerRelayBody');
    }
    expect(components.schemas.RetailerRelayBody).toMatchObject({ type: 'object', additionalProperties: true });
    expect(item['x-sandbox-raw-endpoint-alias']).toMatch(/^Outside the contract/);
  });
});

describe("relay: retailer errors are conveyed, never turned into this API's statuses", () => {
  it('When the retailer has no such operation, then 200 with its 404 body and X-Retailer-Status 404', async () => {
    const res = await relay('get', channels.connected, 'nothing%2Fhere');
    expect(res.status).toBe(200);
    expect(res.headers['x-retailer-status']).toBe('404');
    expect(JSON.parse(res.body.response).errors[0].code).toBe('NotFound');
  });

  it('When the method is wrong for a known retailer path, then X-Retailer-Status 405; bad input, 400', async () => {
    expect((await relay('post', channels.connected, ORDERS, { body: {} })).headers['x-retailer-status']).toBe('405');
    expect((await relay('get', channels.connected, ORDERS)).headers['x-retailer-status']).toBe('400');
  });
});

describe('relay: throttling', () => {
  it('When the orders bucket is empty, then 429 with Retry-After, logged; after that many seconds the call succeeds again', async () => {
    let throttled: request.Response | undefined;
    for (let i = 0; i < 25 && !throttled; i++) {
      const res = await relay('get', channels.connected, ORDERS, { query: ORDERS_QUERY });
      if (res.status === 429) throttled = res;
      else expect(res.status).toBe(200);
    }
    expect(throttled).toBeDefined();
    const retryAfter = Number(throttled!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(throttled!.body.message).toMatch(/throttled/);
    const [logged] = await calls(channels.connected);
    expect(logged).toMatchObject({ status: 429, retailer_status: 429 });
    // Another retailer operation has its own bucket.
    expect((await relay('get', channels.connected, 'sellers%2Fv1%2FmarketplaceParticipations')).status).toBe(200);
    t.clock.advance(retryAfter * 1000);
    expect((await relay('get', channels.connected, ORDERS, { query: ORDERS_QUERY })).status).toBe(200);
  });
});

describe('relay: token refresh', () => {
  it('When the stored access token has expired, then it is refreshed before the call and the new token and expiry are stored', async () => {
    await connect(t, channels.unconnected, { access_token_expires_at: '2024-01-01T00:00:00Z' });
    const before = t.store.channel_connections.get(channels.unconnected)!;
    const res = await relay('get', channels.unconnected, ORDERS, { query: ORDERS_QUERY });
    expect(res.status).toBe(200);
    const after = t.store.channel_connections.get(channels.unconnected)!;
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).toBe(before.refresh_token);
    expect(Date.parse(after.access_token_expires_at)).toBeGreaterThan(t.clock.now().getTime());
    const got = await request(t.app).get(`/2024-09/channels/${channels.unconnected}`).set(t.auth('owner'));
    expect(got.body.data.access_token_expires_at).toBe(after.access_token_expires_at);
    expect((await calls(channels.unconnected))[0]).toMatchObject({ refreshed_token: true, status: 200 });
    // The next call uses the new token as it is: no second refresh.
    await relay('get', channels.unconnected, 'sellers%2Fv1%2FmarketplaceParticipations');
    expect((await calls(channels.unconnected))[0].refreshed_token).toBe(false);
  });

  it('When the seeded demo channel is used the first time, then it refreshes its token and the relay works at once', async () => {
    const res = await relay('get', channels.connected, ORDERS, { query: ORDERS_QUERY });
    expect(res.status).toBe(200);
    expect((await calls(channels.connected))[0].refreshed_token).toBe(true);
  });

  it("When the clock passes the refreshed token's expiry, then the relay refreshes again", async () => {
    await relay('get', channels.connected, 'sellers%2Fv1%2FmarketplaceParticipations');
    const first = t.store.channel_connections.get(channels.connected)!.access_token;
    t.clock.advance(2 * 3_600_000);
    expect((await relay('get', channels.connected, 'sellers%2Fv1%2FmarketplaceParticipations')).status).toBe(200);
    expect(t.store.channel_connections.get(channels.connected)!.access_token).not.toBe(first);
  });
});

describe('relay: never leaves the process', () => {
  let connects: { host?: string; port?: number }[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("When endpoints, headers and bodies name other hosts, then the only socket opened is the test client's own", async () => {
    const original = net.Socket.prototype.connect;
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      // net.connect hands over its normalized arguments as one array: [options, callback].
      const first = (Array.isArray(args[0]) ? args[0][0] : args[0]) as { host?: string; port?: number; path?: string };
      connects.push(typeof first === 'object' ? { host: first.host, port: Number(first.port) } : { host: String(args[1] ?? 'localhost'), port: Number(first) });
      return (original as (...a: unknown[]) => net.Socket).apply(this, args);
    });
    // testApp's server listens for the test: the client's one socket goes to its port.
    const server = t.app;
    const { port } = server.address() as AddressInfo;
    try {
      const send = (method: Method, endpoint: string, body?: object, headers: Record<string, string> = {}) =>
        request(server)[method](relayPath(channels.connected, endpoint)).set(t.auth('owner')).set(headers).send(body);
      const attempts = [
        await send('get', 'http:%2F%2F169.254.169.254%2Flatest'),
        await send('get', '%2F%2Fevil.example%2Fx'),
        await send('get', 'http://evil.example/x'),
        await send('get', 'orders/../../../etc/passwd'),
        await send('post', 'feeds%2F2021-06-30%2Ffeeds', {
          feedType: 'X',
          url: 'http://evil.example/',
          marketplaceIds: ['ATVPDKIKX0DER'],
          inputFeedDocumentId: 'https://evil.example/doc',
        }),
        await send('get', ORDERS, undefined, { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', Forwarded: 'host=evil.example' }),
      ];
      expect(attempts.map((r) => r.status)).toEqual([422, 422, 422, 422, 200, 200]);
      expect(connects.length).toBeGreaterThan(0);
      for (const c of connects) expect(c).toEqual({ host: '127.0.0.1', port });
    } finally {
      connects = [];
    }
  });

  it('When a relayed body nests deeper than 32 levels, then 422 on body and the retailer keeps nothing; at 32 levels the listing is stored and read back', async () => {
    // The body is level 1, attributes level 2, then `levels` arrays: the innermost is level 2 + levels.
    // Sent as text: a client serializing 100,000 levels would overflow its own stack.
    const nested = (levels: number) => `{"productType":"SHOES","attributes":{"deep":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
    const put = (sku: string, body: string) =>
      request(t.app)
        .put(relayPath(channels.connected, listing(sku)))
        .query({ marketplaceIds: 'ATVPDKIKX0DER' })
        .set(t.auth('owner'))
        .set('Content-Type', 'application/json')
        .send(body);

    const deep = await put('DEEP-SKU', nested(31)).expect(422);
    expect(deep.body.errors.body).toEqual(['The body must not nest deeper than 32 levels of objects and arrays.']);
    const hostile = await put('DEEP-SKU', nested(100_000)).expect(422);
    expect(hostile.body.errors).toHaveProperty('body');
    const missing = await request(t.app)
      .get(relayPath(channels.connected, listing('DEEP-SKU')))
      .query({ marketplaceIds: 'ATVPDKIKX0DER' })
      .set(t.auth('owner'));
    expect(missing.headers['x-retailer-status']).toBe('404');

    await put('DEEP-SKU', nested(30)).expect(200);
    const read = await request(t.app)
      .get(relayPath(channels.connected, listing('DEEP-SKU')))
      .query({ marketplaceIds: 'ATVPDKIKX0DER' })
      .set(t.auth('owner'))
      .expect(200);
    expect(read.headers['x-retailer-status']).toBe('200');
    expect(t.errors).toEqual([]);
  });

  it("When another merchant relays a forged NextToken carrying a state for this merchant's channel, then the retailer's 400 and the channel's listings are untouched", async () => {
    const at = '2024-09-01T00:00:00.000Z';
    const pwned = { sku: 'PWNED', asin: null, product_type: 'X', attributes: {}, created_at: at, updated_at: at };
    const forged = {
      m: ['ATVPDKIKX0DER'],
      s: [],
      n: 1,
      o: 0,
      status: 200,
      body: { payload: 'forged' },
      state: { id: channels.connected, channel_id: channels.connected, listings: { PWNED: pwned }, feeds: [], updated_at: at },
    };
    const res = await request(t.app)
      .get(relayPath(channels.rival, ORDERS))
      .query({ MarketplaceIds: 'ATVPDKIKX0DER', NextToken: encodePageToken(channels.rival, forged) })
      .set(t.auth('rival'))
      .expect(200);
    expect(res.headers['x-retailer-status']).toBe('400');
    expect(t.store.retailer_states.get(channels.connected)).toBeUndefined();
    const read = await request(t.app)
      .get(relayPath(channels.connected, listing('PWNED')))
      .query({ marketplaceIds: 'ATVPDKIKX0DER' })
      .set(t.auth('owner'));
    expect(read.headers['x-retailer-status']).toBe('404');
  });
});
