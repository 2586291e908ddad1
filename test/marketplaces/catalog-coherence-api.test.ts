import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MARKETPLACE_SCALE, unitsFromRanks } from '../../src/areas/forecasting/sales-volume-model.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});

const get = async (path: string, query: Record<string, unknown> = {}) => {
  const res = await request(t.app).get(`/2024-09${path}`).query(query).set(t.auth('owner'));
  expect(res.status, path).toBe(200);
  return res.body;
};

/** Every page of a list, walked through its `links.next` like a client would. */
async function all(path: string, query: Record<string, unknown> = {}) {
  const items: any[] = [];
  let body = await get(path, { ...query, per_page: 100 });
  items.push(...body.data);
  while (body.links.next) {
    const next = new URL(body.links.next);
    body = await get(next.pathname.replace('/2024-09', ''), Object.fromEntries(next.searchParams));
    items.push(...body.data);
  }
  return items;
}

describe('the catalog over HTTP is coherent', () => {
  it('When a client walks from catalog items to offers, price history and sales ranks, then they agree with each other and with the forecasts', async () => {
    const items = (await get('/marketplaces/catalog-items', { per_page: 6, page: 3 })).data;
    const marketplaces = await all('/marketplaces');
    for (const item of items) {
      const base = `/marketplaces/catalog-items/${item.id}`;
      const offers = await all(`${base}/current-offers`);
      const prices = await all(`${base}/price-history`);
      const ranks = await all(`${base}/sales-ranks`, { category_level: 'root' });

      // Offers: the count is the item's offer_count; the winner comes first and is the cheapest landed price.
      expect(offers).toHaveLength(item.offer_count);
      expect(offers[0].is_buy_box_winner).toBe(true);
      expect(offers.filter((o) => o.is_buy_box_winner)).toHaveLength(1);
      for (const o of offers.slice(1)) expect(o.price.value + o.shipping_price.value).toBeGreaterThan(offers[0].price.value);

      // Price history: oldest first, ends today at the buy-box price.
      const last = prices.at(-1);
      expect(last.price).toEqual(offers[0].price);
      expect(last.price).toEqual(item.buy_box_price);
      expect(new Date(last.recorded_at).toISOString().slice(0, 10)).toBe(t.clock.now().toISOString().slice(0, 10));
      expect(prices.length).toBe(ranks.length);

      // Sales ranks drive the sales volume forecast: same days, same ranks, same units.
      const [volume] = (await get('/forecasting/sales-volume-forecasts', { marketplace_catalog_item_id: item.id, period_days: 30 })).data;
      const lastThirty = ranks.slice(-30);
      expect(volume.sales_rank_observations).toBe(lastThirty.length);
      expect(volume.sales_ranks_from).toBe(lastThirty[0].recorded_at);
      expect(volume.sales_ranks_to).toBe(lastThirty.at(-1).recorded_at);
      expect(volume.sales_rank_best).toBe(Math.min(...lastThirty.map((r) => r.rank)));
      expect(volume.sales_rank_worst).toBe(Math.max(...lastThirty.map((r) => r.rank)));
      const country = marketplaces.find((m) => m.id === item.marketplace_id).country_code;
      const units = unitsFromRanks(
        lastThirty.map((r) => r.rank),
        item.category,
        MARKETPLACE_SCALE[country]!,
        30,
      );
      expect([volume.expected_units_low, volume.expected_units, volume.expected_units_high]).toEqual([units.low, units.expected, units.high]);
      expect(volume.sales_rank_category).toBe(ranks[0].category);
    }
  });

  it('When a forecast is calculated now, then its inputs are what the catalog endpoints show now', async () => {
    const costId = t.store.supplier_items
      .where('merchant_id', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa')
      .flatMap((i) => i.costs)
      .find((c) => c.cost.currency === 'USD')!.id;
    const item = (await get('/marketplaces/catalog-items', { per_page: 1, page: 7 })).data[0];
    const res = await request(t.app)
      .post('/2024-09/forecasting/opportunity-forecasts/calculate')
      .set(t.auth('owner'))
      .send({ marketplace_catalog_item_id: item.id, supplier_item_cost_id: costId });
    expect(res.status).toBe(201);
    const inputs = res.body.data.forecast_inputs;
    const offers = await all(`/marketplaces/catalog-items/${item.id}/current-offers`);
    const prices = await all(`/marketplaces/catalog-items/${item.id}/price-history`);
    const [volume] = (await get('/forecasting/sales-volume-forecasts', { marketplace_catalog_item_id: item.id })).data;
    expect(inputs).toMatchObject({
      buy_box_price: offers[0].price.value,
      seller_count: offers.length,
      price_history_days: prices.length,
      monthly_units_low: volume.expected_units_low,
      monthly_units_expected: volume.expected_units,
      monthly_units_high: volume.expected_units_high,
      sales_rank_average: volume.sales_rank_average,
      marketplace_currency: item.buy_box_price.currency,
    });
  });
});
