import { describe, expect, it } from 'vitest';
import { bodyOf, connectedRetailer, US } from './fixture.js';

describe('retailer orders v0', () => {
  it('When orders are paged with NextToken, then every order comes exactly once and the last page has no NextToken', () => {
    const { call, account } = connectedRetailer();
    const seen: string[] = [];
    let query: Record<string, string> = { MarketplaceIds: US, CreatedAfter: '2020-01-01T00:00:00Z', MaxResultsPerPage: '20' };
    for (let pages = 0; pages < 10; pages++) {
      const res = call('GET', 'orders/v0/orders', query);
      expect(res.status).toBe(200);
      const payload = bodyOf(res).payload;
      seen.push(...payload.Orders.map((o: any) => o.AmazonOrderId));
      if (!payload.NextToken) break;
      expect(payload.Orders).toHaveLength(20);
      query = { MarketplaceIds: US, NextToken: payload.NextToken };
    }
    expect(seen).toEqual(account.orders.map((o) => o.order_id));
  });

  it('When CreatedAfter is set, then only orders purchased since then are listed', () => {
    const { call, account } = connectedRetailer();
    const since = account.orders[40]!.purchase_date;
    const res = call('GET', 'orders/v0/orders', { MarketplaceIds: US, CreatedAfter: since });
    const orders = bodyOf(res).payload.Orders;
    expect(orders.length).toBe(account.orders.filter((o) => o.purchase_date >= since).length);
    expect(orders.every((o: any) => o.PurchaseDate >= since)).toBe(true);
  });

  it('When MarketplaceIds or CreatedAfter is missing, or the NextToken is forged, then the retailer answers 400 InvalidInput', () => {
    const { call } = connectedRetailer();
    expect(call('GET', 'orders/v0/orders', { CreatedAfter: '2024-01-01T00:00:00Z' }).status).toBe(400);
    expect(bodyOf(call('GET', 'orders/v0/orders', { MarketplaceIds: US })).errors[0].code).toBe('InvalidInput');
    expect(call('GET', 'orders/v0/orders', { MarketplaceIds: US, NextToken: 'not-a-token' }).status).toBe(400);
  });

  it('When one order is fetched by id, then it is wrapped in payload; an unknown id is the retailer 404', () => {
    const { call, account } = connectedRetailer();
    const id = account.orders[0]!.order_id;
    expect(bodyOf(call('GET', `orders/v0/orders/${id}`)).payload.AmazonOrderId).toBe(id);
    expect(bodyOf(call('GET', `orders/v0/orders/${id}/orderItems`)).payload.OrderItems.length).toBeGreaterThan(0);
    const missing = call('GET', 'orders/v0/orders/000-0000000-0000000');
    expect(missing.status).toBe(404);
    expect(bodyOf(missing).errors[0].code).toBe('NotFound');
  });
});
