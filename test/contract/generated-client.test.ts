import createClient from 'openapi-fetch';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { retailerOf } from '../../src/areas/channels/retailer-instance.js';
import type { paths } from '../../src/contract/document/generated.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';

// The specification's workflow (section 1) driven by a client generated from openapi.yaml: openapi-typescript types
// (src/contract/document/generated.ts) and openapi-fetch calls over real loopback HTTP. No request input is cast: if the
// contract stopped describing what a client must send, `npm run typecheck` fails here before any test runs.

const RELAY = '/2024-09/channels/retailer/{channel}/call/{endpoint}';
const MARKETPLACE = 'ATVPDKIKX0DER';

let sandbox: RunningSandbox;
let errors: string[];
beforeEach(async () => {
  errors = [];
  sandbox = await startSandbox({ logLevel: 'silent', errorLog: (line) => errors.push(line) });
});
afterEach(async () => {
  await sandbox.close();
});

/**
 * The client as an integrator configures it. The relay's query is a form-exploded object (its members are the query
 * parameters); openapi-fetch needs to be told, since it serializes objects as deepObject by default.
 */
function client(token?: string) {
  return createClient<paths>({
    baseUrl: sandbox.url,
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    querySerializer: { object: { style: 'form', explode: true } },
  });
}

/** Steps 1 to 4: an API token, the current user, a merchant, a channel, its connection data. */
async function connectedChannel() {
  const user = await client().POST('/_sandbox/users', { body: { name: 'Ada Integrator', email: 'ada@example.com' } });
  expect(user.response.status).toBe(201);
  const api = client(user.data!.data.token);

  const current = await api.GET('/2024-09/users/current');
  expect(current.data!.data).toMatchObject({ id: user.data!.data.user.id, name: 'Ada Integrator' });

  const merchant = await api.POST('/2024-09/merchants', { body: { name: 'Ada Goods' } });
  expect(merchant.response.status).toBe(201);
  const merchantId = merchant.data!.data.id;

  const channel = await api.POST('/2024-09/channels', { body: { name: 'Ada Goods US store', merchant_id: merchantId, type: 'retailer' } });
  expect(channel.response.status).toBe(200);
  const channelId = channel.data!.data.id;

  const stored = await api.POST('/2024-09/channels/retailer/{channel}/connection-data', {
    params: { path: { channel: channelId } },
    body: { access_token: 'Atza|ada-access', access_token_expires_at: '2099-01-01T00:00:00Z', refresh_token: 'Atzr|ada-refresh', marketplace_id: MARKETPLACE },
  });
  expect(stored.response.status).toBe(200);
  expect(stored.data!.data.connected).toBe(true);
  return { api, token: user.data!.data.token, merchantId, channelId };
}

describe("generated client (openapi-typescript + openapi-fetch): the specification's workflow", () => {
  it('When a generated client creates a user, merchant and channel and stores connection data, then each step answers its documented status', async () => {
    const { api, merchantId, channelId } = await connectedChannel();
    const listed = await api.GET('/2024-09/channels', { params: { query: { merchant_id: merchantId } } });
    expect(listed.data!.data.map((c) => c.id)).toEqual([channelId]);
    expect(errors).toEqual([]);
  });

  it('When a generated client relays a GET with MarketplaceIds in the declared query object, then the retailer answers the orders', async () => {
    const { api, channelId } = await connectedChannel();
    const orders = await api.GET(RELAY, {
      params: {
        path: { channel: channelId, endpoint: 'orders/v0/orders' },
        query: { retailer_query: { MarketplaceIds: MARKETPLACE, CreatedAfter: '2024-01-01T00:00:00Z', MaxResultsPerPage: '5' } },
      },
    });
    expect(orders.response.status).toBe(200);
    expect(orders.response.headers.get('x-retailer-status')).toBe('200');
    // The wire carries the members themselves, and the encoded single-segment endpoint.
    expect(orders.response.url).toContain('/call/orders%2Fv0%2Forders?MarketplaceIds=ATVPDKIKX0DER&');
    const payload = JSON.parse(orders.data!.response).payload;
    expect(payload.Orders).toHaveLength(5);
    expect(payload.Orders[0].MarketplaceId).toBe(MARKETPLACE);
  });

  it('When a generated client relays a POST, a PUT and a PATCH with a JSON body, then the retailer receives it', async () => {
    const { api, channelId } = await connectedChannel();
    const feed = await api.POST(RELAY, {
      params: { path: { channel: channelId, endpoint: 'feeds/2021-06-30/feeds' } },
      body: { feedType: 'POST_INVENTORY_AVAILABILITY_DATA', marketplaceIds: [MARKETPLACE], inputFeedDocumentId: 'amzn1.tortuga.4.na.example' },
    });
    expect(feed.response.headers.get('x-retailer-status')).toBe('202');
    expect(JSON.parse(feed.data!.response)).toEqual({ feedId: expect.any(String) });

    // A seller knows its own seller id (Seller Central shows it); here it is read from the simulated retailer.
    const sellerId = retailerOf(sandbox.worlds.defaultWorld).account(channelId).seller_id;
    const listing = `listings/2021-08-01/items/${sellerId}/ADA-SKU-1`;
    const marketplace = { retailer_query: { marketplaceIds: MARKETPLACE } };
    const put = await api.PUT(RELAY, {
      params: { path: { channel: channelId, endpoint: listing }, query: marketplace },
      body: {
        productType: 'SHOES',
        requirements: 'LISTING',
        attributes: {
          item_name: [{ value: 'Trail Runner' }],
          purchasable_offer: [{ currency: 'USD', our_price: [{ schedule: [{ value_with_tax: 89.99 }] }] }],
          fulfillment_availability: [{ fulfillment_channel_code: 'DEFAULT', quantity: 25 }],
        },
      },
    });
    expect(put.response.headers.get('x-retailer-status')).toBe('200');
    expect(JSON.parse(put.data!.response)).toMatchObject({ sku: 'ADA-SKU-1', status: 'ACCEPTED' });
    const patch = await api.PATCH(RELAY, {
      params: { path: { channel: channelId, endpoint: listing }, query: marketplace },
      body: {
        productType: 'SHOES',
        patches: [{ op: 'replace', path: '/attributes/fulfillment_availability', value: [{ fulfillment_channel_code: 'DEFAULT', quantity: 7 }] }],
      },
    });
    expect(patch.response.headers.get('x-retailer-status')).toBe('200');
    const got = await api.GET(RELAY, { params: { path: { channel: channelId, endpoint: listing }, query: marketplace } });
    expect(JSON.parse(got.data!.response).fulfillmentAvailability[0].quantity).toBe(7);
    const removed = await api.DELETE(RELAY, { params: { path: { channel: channelId, endpoint: listing }, query: marketplace } });
    expect(removed.response.headers.get('x-retailer-status')).toBe('200');
  });

  it('When a generated client puts the query into the endpoint instead, then it is relayed the same way', async () => {
    const { api, channelId } = await connectedChannel();
    const orders = await api.GET(RELAY, {
      params: { path: { channel: channelId, endpoint: `orders/v0/orders?MarketplaceIds=${MARKETPLACE}&CreatedAfter=2024-01-01T00:00:00Z` } },
    });
    expect(orders.response.headers.get('x-retailer-status')).toBe('200');
    expect(JSON.parse(orders.data!.response).payload.Orders.length).toBeGreaterThan(0);
  });

  it("When a generated client keeps openapi-fetch's default deepObject serializer, then 422 names retailer_query and the serializer to use", async () => {
    const { token, channelId } = await connectedChannel();
    const unconfigured = createClient<paths>({ baseUrl: sandbox.url, headers: { Authorization: `Bearer ${token}` } });
    const res = await unconfigured.GET(RELAY, {
      params: { path: { channel: channelId, endpoint: 'orders/v0/orders' }, query: { retailer_query: { MarketplaceIds: MARKETPLACE } } },
    });
    expect(res.response.status).toBe(422);
    expect(res.response.url).toContain('?retailer_query[MarketplaceIds]=');
    expect(res.error).toMatchObject({ errors: { retailer_query: [expect.stringContaining('explode: true')] } });
  });

  it('When a generated client creates a product, an identifier, a supplier, a supplier item with two cost tiers and calculates a forecast, then the forecast list filtered by minimum_profit keeps it exactly when its profit reaches the minimum', async () => {
    const { api, merchantId } = await connectedChannel();
    const product = await api.POST('/2024-09/products', { body: { merchant_id: merchantId, sku: 'ADA-MUG-1', title: 'Enamel camping mug' } });
    expect(product.response.status).toBe(201);
    const productId = product.data!.data.id;
    const identifier = await api.POST('/2024-09/products/{product}/identifiers', {
      params: { path: { product: productId } },
      body: { type: 'UPC', value: '012345678905' },
    });
    expect(identifier.response.status).toBe(201);
    expect(identifier.data!.data).toMatchObject({ product_id: productId, type: 'UPC', value: '012345678905' });

    const supplier = await api.POST('/2024-09/suppliers', { body: { merchant_id: merchantId, name: 'Kettle & Co', default_currency: 'USD' } });
    expect(supplier.response.status).toBe(201);
    const item = await api.POST('/2024-09/supplier-items', {
      body: {
        merchant_id: merchantId,
        supplier_id: supplier.data!.data.id,
        sku: 'KC-MUG-350',
        product_id: productId,
        costs: [
          { minimum_order_quantity: 1, cost: { value: 4.2, currency: 'USD' } },
          { minimum_order_quantity: 100, cost: { value: 3.1, currency: 'USD' } },
        ],
      },
    });
    expect(item.response.status).toBe(201);
    const tiers = item.data!.data.costs;
    expect(tiers.map((c) => c.minimum_order_quantity)).toEqual([1, 100]);

    const catalog = await api.GET('/2024-09/marketplaces/catalog-items', { params: { query: { per_page: 5 } } });
    const catalogItemId = catalog.data!.data[0]!.id;
    const forecast = await api.POST('/2024-09/forecasting/opportunity-forecasts/calculate', {
      body: { marketplace_catalog_item_id: catalogItemId, supplier_item_cost_id: tiers[1]!.id },
    });
    expect(forecast.response.status).toBe(201);
    const calculated = forecast.data!.data;
    expect(calculated).toMatchObject({ marketplace_catalog_item_id: catalogItemId, supplier_item_cost_id: tiers[1]!.id });
    const profit = calculated.risk_adjusted_thirty_day_profit_forecast_high.value;

    const list = (minimum_profit: number) =>
      api.GET('/2024-09/forecasting/opportunity-forecasts', { params: { query: { merchant_id: merchantId, minimum_profit } } });
    const floor = Math.max(0, Math.floor(profit));
    expect((await list(floor)).data!.data.map((f) => f.id)).toEqual(profit >= floor ? [calculated.id] : []);
    expect((await list(Math.max(0, profit) + 1)).data!.data).toEqual([]);
    expect(errors).toEqual([]);
  });
});

// Read-modify-write as an integrator writes it: GET, spread the `data` object, change one field, PUT it whole.
// These pass once read-only fields sent back on a PUT are ignored (issue 11, tolerant reader); the request types
// already accept the spread, since a GET body carries every field the update schema names.
describe('generated client: read-modify-write PUTs of a GET body', () => {
  it('When a product is read, its title changed and the whole data PUT back, then 204 and the new title is read back', async () => {
    const { api, merchantId } = await connectedChannel();
    const created = await api.POST('/2024-09/products', { body: { merchant_id: merchantId, sku: 'ADA-RMW-1', title: 'Mug' } });
    const path = { product: created.data!.data.id };
    const read = await api.GET('/2024-09/products/{product}', { params: { path } });
    const put = await api.PUT('/2024-09/products/{product}', { params: { path }, body: { ...read.data!.data, title: 'Enamel mug' } });
    expect(put.response.status, JSON.stringify(put.error)).toBe(204);
    expect((await api.GET('/2024-09/products/{product}', { params: { path } })).data!.data.title).toBe('Enamel mug');
  });

  it('When a supplier is read, its name changed and the whole data PUT back, then 204 and the new name is read back', async () => {
    const { api, merchantId } = await connectedChannel();
    const created = await api.POST('/2024-09/suppliers', { body: { merchant_id: merchantId, name: 'Kettle & Co', default_currency: 'USD' } });
    const path = { supplier: created.data!.data.id };
    const read = await api.GET('/2024-09/suppliers/{supplier}', { params: { path } });
    const put = await api.PUT('/2024-09/suppliers/{supplier}', { params: { path }, body: { ...read.data!.data, name: 'Kettle & Sons' } });
    expect(put.response.status, JSON.stringify(put.error)).toBe(204);
    expect((await api.GET('/2024-09/suppliers/{supplier}', { params: { path } })).data!.data.name).toBe('Kettle & Sons');
  });

  it('When a supplier item is read, its description changed and the whole data PUT back, then 204 and its tiers are kept', async () => {
    const { api, merchantId } = await connectedChannel();
    const supplier = await api.POST('/2024-09/suppliers', { body: { merchant_id: merchantId, name: 'Kettle & Co', default_currency: 'USD' } });
    const created = await api.POST('/2024-09/supplier-items', {
      body: {
        merchant_id: merchantId,
        supplier_id: supplier.data!.data.id,
        sku: 'KC-RMW-1',
        costs: [
          { minimum_order_quantity: 1, cost: { value: 4.2, currency: 'USD' } },
          { minimum_order_quantity: 100, cost: { value: 3.1, currency: 'USD' } },
        ],
      },
    });
    const path = { supplier_item: created.data!.data.id };
    const read = await api.GET('/2024-09/supplier-items/{supplier_item}', { params: { path } });
    const put = await api.PUT('/2024-09/supplier-items/{supplier_item}', { params: { path }, body: { ...read.data!.data, description: '350 ml, blue' } });
    expect(put.response.status, JSON.stringify(put.error)).toBe(204);
    const after = (await api.GET('/2024-09/supplier-items/{supplier_item}', { params: { path } })).data!.data;
    expect(after.description).toBe('350 ml, blue');
    expect(after.costs).toEqual(read.data!.data.costs);
  });

  it('When a channel is read, its name changed and the whole data PUT back, then 200 with the new name', async () => {
    const { api, channelId } = await connectedChannel();
    const path = { channel: channelId };
    const read = await api.GET('/2024-09/channels/{channel}', { params: { path } });
    const put = await api.PUT('/2024-09/channels/{channel}', { params: { path }, body: { ...read.data!.data, name: 'Ada Goods US' } });
    expect(put.response.status, JSON.stringify(put.error)).toBe(200);
    expect(put.data!.data).toMatchObject({ id: channelId, name: 'Ada Goods US', connected: true });
  });
});
