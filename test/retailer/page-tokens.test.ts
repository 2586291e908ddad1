import { describe, expect, it } from 'vitest';
import { encodePageToken } from '../../src/retailer/page-token.js';
import { adoptGrant } from '../../src/retailer/auth/grants.js';
import { ACCESS, bodyOf, CHANNEL, connectedRetailer, OTHER_CHANNEL, T0, US } from './fixture.js';

const issuedOrdersToken = { m: [US], ca: '2020-01-01T00:00:00.000Z', cb: '2024-09-02T09:58:00.000Z', s: [], n: 2, o: 2 };

describe('forged page tokens', () => {
  it.each([
    ['a field missing', { m: [US], o: 0 }],
    ['the statuses not a list', { ...issuedOrdersToken, s: 5 }],
    ['a negative offset', { ...issuedOrdersToken, o: -3 }],
    ['a page size past MaxResultsPerPage', { ...issuedOrdersToken, n: 1e9 }],
    ['a marketplace that is not a string', { ...issuedOrdersToken, m: [1] }],
    ['a date that is an object', { ...issuedOrdersToken, cb: { a: 1 } }],
  ])('When a NextToken with %s is relayed to the orders API, then the retailer answers 400 InvalidInput', (_, forged) => {
    const { call } = connectedRetailer({ rateLimit: () => null });
    const res = call('GET', 'orders/v0/orders', { MarketplaceIds: US, NextToken: encodePageToken(CHANNEL, forged) });
    expect(res.status).toBe(400);
    expect(bodyOf(res).errors[0]).toMatchObject({ code: 'InvalidInput', message: 'Invalid NextToken.' });
  });

  it('When the NextToken is the one the orders API issued, then it still pages', () => {
    const { call } = connectedRetailer({ rateLimit: () => null });
    const res = call('GET', 'orders/v0/orders', { MarketplaceIds: US, NextToken: encodePageToken(CHANNEL, issuedOrdersToken) });
    expect(res.status).toBe(200);
    expect(bodyOf(res).payload.Orders).toHaveLength(2);
  });

  it.each([
    ['a fractional offset', `{"o":0.5,"c":"${CHANNEL}"}`],
    ['an offset too large to be exact', `{"o":1e999,"c":"${CHANNEL}"}`],
    ['an offset as a string', `{"o":"1","c":"${CHANNEL}"}`],
  ])('When a catalog pageToken or inventory nextToken has %s, then the retailer answers 400 InvalidInput', (_, forged) => {
    const { call, account } = connectedRetailer({ rateLimit: () => null });
    const token = Buffer.from(forged, 'utf8').toString('base64url');
    const catalog = call('GET', 'catalog/2022-04-01/items', { marketplaceIds: US, keywords: account.catalog[0]!.brand, pageToken: token });
    expect(bodyOf(catalog).errors?.[0]).toMatchObject({ code: 'InvalidInput', message: 'Invalid pageToken.' });
    const inventory = call('GET', 'fba/inventory/v1/summaries', {
      granularityType: 'Marketplace',
      granularityId: US,
      marketplaceIds: US,
      nextToken: token,
    });
    expect(bodyOf(inventory).errors?.[0]).toMatchObject({ code: 'InvalidInput', message: 'Invalid nextToken.' });
  });

  it("When another channel's NextToken or pageToken is relayed, then the retailer answers 400 InvalidInput instead of paging this channel", () => {
    const { retailer, port, call, account } = connectedRetailer({ rateLimit: () => null });
    adoptGrant(port, OTHER_CHANNEL, { access_token: 'Atza|other', refresh_token: 'Atzr|other', access_token_expires_at: '2024-09-02T11:00:00.000Z' }, T0);
    const other = (path: string, query: Record<string, string>) =>
      bodyOf(retailer.handle({ channelId: OTHER_CHANNEL, marketplaceId: US, port }, { method: 'GET', path, query, accessToken: 'Atza|other', now: T0 }));
    const orders = other('orders/v0/orders', { MarketplaceIds: US, CreatedAfter: '2020-01-01T00:00:00Z', MaxResultsPerPage: '1' }).payload;
    expect(orders.NextToken).toBeTypeOf('string');
    const keywords = account.catalog[0]!.title.split(' ')[0]!;
    const catalog = other('catalog/2022-04-01/items', { marketplaceIds: US, keywords: 'a', pageSize: '1' }).pagination;
    expect(catalog.nextToken).toBeTypeOf('string');

    const mine = call('GET', 'orders/v0/orders', { MarketplaceIds: US, NextToken: orders.NextToken });
    expect(bodyOf(mine).errors[0]).toMatchObject({ code: 'InvalidInput', message: 'Invalid NextToken.' });
    const search = call('GET', 'catalog/2022-04-01/items', { marketplaceIds: US, keywords, pageToken: catalog.nextToken });
    expect(bodyOf(search).errors[0]).toMatchObject({ code: 'InvalidInput', message: 'Invalid pageToken.' });
    // The channel's own tokens still page.
    const own = bodyOf(call('GET', 'orders/v0/orders', { MarketplaceIds: US, CreatedAfter: '2020-01-01T00:00:00Z', MaxResultsPerPage: '1' }));
    expect(call('GET', 'orders/v0/orders', { MarketplaceIds: US, NextToken: own.payload.NextToken }, { accessToken: ACCESS }).status).toBe(200);
  });

  it("When a NextToken carries a forged answer and another channel's state beside its filter, then 400 InvalidInput and no channel's state changes", () => {
    const { call, port } = connectedRetailer({ rateLimit: () => null });
    const at = T0.toISOString();
    const forged = {
      ...issuedOrdersToken,
      status: 200,
      body: { payload: 'forged' },
      state: { id: OTHER_CHANNEL, channel_id: OTHER_CHANNEL, listings: { PWNED: null }, feeds: [], updated_at: at },
    };
    const res = call('GET', 'orders/v0/orders', { MarketplaceIds: US, NextToken: encodePageToken(CHANNEL, forged) });
    expect(res.status).toBe(400);
    expect(bodyOf(res).errors[0]).toMatchObject({ code: 'InvalidInput', message: 'Invalid NextToken.' });
    expect(port.getState(OTHER_CHANNEL)).toBeUndefined();
    expect(port.getState(CHANNEL)).toBeUndefined();
  });
});
