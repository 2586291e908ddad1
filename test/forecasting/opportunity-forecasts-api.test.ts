import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const LIST = '/2024-09/forecasting/opportunity-forecasts';
const CALC = '/2024-09/forecasting/opportunity-forecasts/calculate';
const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
type Forecast = {
  id: string;
  marketplace_catalog_item_id: string;
  supplier_item_cost_id: string;
  risk_adjusted_thirty_day_profit_forecast_high: { value: number };
  forecast_inputs: { margin_percent: number };
};

describe('listOpportunityForecasts', () => {
  let t: TestApp;
  let seeded: Forecast[];
  const list = (query: Record<string, unknown>, who: 'owner' | 'member' | 'outsider' | 'rival' = 'member') =>
    request(t.app).get(LIST).query(query).set(t.auth(who));

  beforeEach(async () => {
    t = await testApp();
    const res = await list({ merchant_id: demo.merchant, per_page: 100 });
    expect(res.status).toBe(200);
    seeded = res.body.data;
  });
  afterEach(() => {
    // Every answer here is a documented one: the app logged no unexpected error.
    expect(t.errors).toEqual([]);
  });

  it("When the demo merchant is listed, then its seeded forecasts come back, oldest first, and no other merchant's", async () => {
    expect(seeded.length).toBe(t.store.opportunity_forecasts.where('merchant_id', demo.merchant).length);
    expect(seeded.length).toBeGreaterThanOrEqual(20);
    const rivalIds = new Set(t.store.opportunity_forecasts.where('merchant_id', demo.rivalMerchant).map((f) => f.id));
    expect(rivalIds.size).toBeGreaterThan(0);
    expect(seeded.some((f) => rivalIds.has(f.id))).toBe(false);
    expect(seeded[0]).not.toHaveProperty('merchant_id');
  });

  it("When the seeded forecasts are read, then they spread across the filters' ranges", () => {
    const profits = seeded.map((f) => f.risk_adjusted_thirty_day_profit_forecast_high.value);
    const margins = seeded.map((f) => f.forecast_inputs.margin_percent);
    expect(Math.min(...profits)).toBeLessThan(0);
    expect(profits.some((p) => p >= 100 && p < 1000)).toBe(true);
    expect(Math.max(...profits)).toBeGreaterThan(1000);
    expect(Math.min(...margins)).toBeLessThan(0);
    expect(margins.some((m) => m > 20 && m < 50)).toBe(true);
    expect(Math.max(...margins)).toBeGreaterThan(50);
  });

  const filters: [string, Record<string, unknown>, (f: Forecast) => boolean][] = [
    ['minimum_profit=0', { minimum_profit: 0 }, (f) => f.risk_adjusted_thirty_day_profit_forecast_high.value >= 0],
    ['minimum_profit=1000', { minimum_profit: 1000 }, (f) => f.risk_adjusted_thirty_day_profit_forecast_high.value >= 1000],
    ['minimum_profit=150.5', { minimum_profit: 150.5 }, (f) => f.risk_adjusted_thirty_day_profit_forecast_high.value >= 150.5],
    ['maximum_margin_percent=0', { maximum_margin_percent: 0 }, (f) => f.forecast_inputs.margin_percent <= 0],
    ['maximum_margin_percent=40', { maximum_margin_percent: 40 }, (f) => f.forecast_inputs.margin_percent <= 40],
    [
      'both',
      { minimum_profit: 100, maximum_margin_percent: 50 },
      (f) => f.risk_adjusted_thirty_day_profit_forecast_high.value >= 100 && f.forecast_inputs.margin_percent <= 50,
    ],
  ];
  it.each(filters)('When filtered by %s, then every returned forecast satisfies it and those that do not are left out', async (_name, query, keep) => {
    const res = await list({ merchant_id: demo.merchant, per_page: 100, ...query });
    expect(res.status).toBe(200);
    const expected = seeded.filter(keep).map((f) => f.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(seeded.length);
    expect(res.body.data.map((f: Forecast) => f.id)).toEqual(expected);
  });

  it('When filtered by id, catalog item or cost tier, then exactly the matching forecasts come back', async () => {
    const target = seeded[3]!;
    const byId = await list({ merchant_id: demo.merchant, id: target.id });
    expect(byId.body.data.map((f: Forecast) => f.id)).toEqual([target.id]);
    for (const field of ['marketplace_catalog_item_id', 'supplier_item_cost_id'] as const) {
      const res = await list({ merchant_id: demo.merchant, per_page: 100, [field]: target[field] });
      const expected = seeded.filter((f) => f[field] === target[field]).map((f) => f.id);
      expect(res.body.data.map((f: Forecast) => f.id)).toEqual(expected);
      expect(expected.length).toBeGreaterThan(1); // the seed has several forecasts per item and per tier
    }
    expect((await list({ merchant_id: demo.merchant, id: UNKNOWN })).body.data).toEqual([]);
  });

  it('When paginated, then pages tile the list with Laravel meta and links that keep the filters', async () => {
    const page1 = await list({ merchant_id: demo.merchant, per_page: 10, minimum_profit: 0 });
    const total = seeded.filter((f) => f.risk_adjusted_thirty_day_profit_forecast_high.value >= 0).length;
    expect(page1.body.meta).toMatchObject({ current_page: 1, per_page: 10, total, last_page: Math.ceil(total / 10) });
    expect(page1.body.links.next).toContain('minimum_profit=0');
    const page2 = await list({ merchant_id: demo.merchant, per_page: 10, minimum_profit: 0, page: 2 });
    expect(page2.body.data.map((f: Forecast) => f.id)).toEqual(
      seeded
        .filter((f) => f.risk_adjusted_thirty_day_profit_forecast_high.value >= 0)
        .slice(10, 20)
        .map((f) => f.id),
    );
    const beyond = await list({ merchant_id: demo.merchant, page: 99 });
    expect(beyond.body.data).toEqual([]);
  });

  it("When a non-member lists a merchant's forecasts, then the 404 is the unknown merchant's, word for word: it never tells that the merchant exists", async () => {
    const unknown = await list({ merchant_id: UNKNOWN }, 'rival');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Merchant not found.' });
    for (const who of ['outsider', 'rival'] as const) {
      const res = await list({ merchant_id: demo.merchant, minimum_profit: 1 }, who);
      expect(res.status, who).toBe(404);
      expect(res.body, who).toEqual(unknown.body);
    }
  });

  it('When the caller is not a member (outsider, rival), then 404 and never the data; an unknown merchant is 404 too', async () => {
    for (const who of ['outsider', 'rival'] as const) {
      const res = await list({ merchant_id: demo.merchant }, who);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: expect.any(String) });
    }
    expect((await list({ merchant_id: UNKNOWN })).status).toBe(404);
    const rivalOwn = await list({ merchant_id: demo.rivalMerchant }, 'rival');
    expect(rivalOwn.status).toBe(200);
    expect(rivalOwn.body.data.length).toBeGreaterThan(0);
  });

  it('When no token is sent, then 401', async () => {
    expect((await request(t.app).get(LIST).query({ merchant_id: demo.merchant })).status).toBe(401);
    expect((await request(t.app).get(LIST).query({ merchant_id: demo.merchant }).set(t.bearer('nope'))).status).toBe(401);
  });

  it('When a query is wrong, then 422 with the field (missing merchant_id, negative profit, margin over 100, malformed id)', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'merchant_id'],
      [{ merchant_id: demo.merchant, minimum_profit: -1 }, 'minimum_profit'],
      [{ merchant_id: demo.merchant, minimum_profit: 'lots' }, 'minimum_profit'],
      [{ merchant_id: demo.merchant, maximum_margin_percent: 101 }, 'maximum_margin_percent'],
      [{ merchant_id: demo.merchant, marketplace_catalog_item_id: 'x' }, 'marketplace_catalog_item_id'],
      [{ merchant_id: demo.merchant, supplier_item_cost_id: 'x' }, 'supplier_item_cost_id'],
      [{ merchant_id: demo.merchant, id: 'x' }, 'id'],
      [{ merchant_id: 'x' }, 'merchant_id'],
    ];
    for (const [query, field] of cases) {
      const res = await list(query);
      expect(res.status, field).toBe(422);
      expect(res.body.errors, field).toHaveProperty(field);
    }
  });
});

describe('calculateOpportunityForecast', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
    // The demo items as a client reads them: the scraping attempts that ended by now applied (a calculate applies
    // them too), so a tier read from the store below is the tier the API shows.
    expect((await request(t.app).get('/2024-09/supplier-items').query({ merchant_id: demo.merchant }).set(t.auth('owner'))).status).toBe(200);
  });
  afterEach(() => {
    // Every answer here is a documented one: the app logged no unexpected error.
    expect(t.errors).toEqual([]);
  });
  const calc = (body: object, who: 'owner' | 'member' | 'outsider' | 'rival' = 'member') => request(t.app).post(CALC).set(t.auth(who)).send(body);
  const demoTier = (currency = 'USD') => {
    const item = t.store.supplier_items
      .where('merchant_id', demo.merchant)
      .find((i) => i.costs.length > 1 && i.costs.some((c) => c.cost.currency === currency))!;
    return { item, tier: item.costs.find((c) => c.cost.currency === currency)! };
  };
  const usItem = () => t.store.catalog_items.where('marketplace_id', 'eeeeeeee-0000-4000-8000-000000000001')[4]!;

  it('When a member calculates, then 201 with the forecast, stored and listed afterwards with every model input', async () => {
    const { tier } = demoTier();
    const item = usItem();
    const res = await calc({ marketplace_catalog_item_id: item.id, supplier_item_cost_id: tier.id });
    expect(res.status).toBe(201);
    const f = res.body.data;
    expect(f).toMatchObject({ marketplace_catalog_item_id: item.id, supplier_item_cost_id: tier.id, type: 'wholesale', forecast_model: 'sandbox-heuristic@1' });
    expect(f.thirty_day_profit_forecast_low.value).toBeLessThanOrEqual(f.thirty_day_profit_forecast_high.value);
    expect(f.risk_adjusted_thirty_day_profit_forecast_high.value).toBeLessThanOrEqual(f.thirty_day_profit_forecast_high.value);
    expect(f.forecast_inputs).toMatchObject({
      unit_cost: tier.cost.value,
      unit_cost_currency: tier.cost.currency,
      minimum_order_quantity: tier.minimum_order_quantity,
    });
    for (const key of [
      'buy_box_price',
      'seller_count',
      'price_history_days',
      'price_volatility',
      'monthly_units_expected',
      'referral_fee_percent',
      'fulfilment_fee',
      'exchange_rate',
      'unit_cost_converted',
      'margin_percent',
    ]) {
      expect(f.forecast_inputs, key).toHaveProperty(key);
    }
    expect(f.calculated_at).toBe(f.created_at);
    const listed = await request(t.app).get(LIST).query({ merchant_id: demo.merchant, id: f.id }).set(t.auth('owner'));
    expect(listed.body.data).toEqual([f]);
    expect(t.store.opportunity_forecasts.get(f.id)).toMatchObject({ merchant_id: demo.merchant });
  });

  it('When the same inputs are calculated twice, then the numbers are the same (two stored forecasts)', async () => {
    const body = { marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: demoTier().tier.id };
    const a = (await calc(body)).body.data;
    const b = (await calc(body)).body.data;
    expect(a.id).not.toBe(b.id);
    const numbers = ({ id: _i, calculated_at: _c, created_at: _cr, updated_at: _u, ...rest }: Record<string, unknown>) => rest;
    expect(numbers(b)).toEqual(numbers(a));
  });

  it("When the cost is higher (the item's cheaper tier vs its dearer one), then the profit is lower through the API", async () => {
    const { item } = demoTier();
    const tiers = [...item.costs].sort((x, y) => x.cost.value - y.cost.value);
    const cheap = tiers[0]!;
    const dear = tiers.at(-1)!;
    expect(dear.cost.value).toBeGreaterThan(cheap.cost.value);
    const target = usItem().id;
    const low = (await calc({ marketplace_catalog_item_id: target, supplier_item_cost_id: cheap.id })).body.data;
    const high = (await calc({ marketplace_catalog_item_id: target, supplier_item_cost_id: dear.id })).body.data;
    expect(high.forecast_inputs.margin_percent).toBeLessThan(low.forecast_inputs.margin_percent);
    expect(high.thirty_day_profit_forecast_high.value).toBeLessThan(low.thirty_day_profit_forecast_high.value);
    expect(high.thirty_day_profit_forecast_low.value).toBeLessThan(low.thirty_day_profit_forecast_low.value);
  });

  it('When the supplier item belongs to another merchant, then 403 and nothing is stored', async () => {
    const rivalTier = t.store.supplier_items.where('merchant_id', demo.rivalMerchant)[0]!.costs[0]!;
    const before = t.store.opportunity_forecasts.size;
    const res = await calc({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: rivalTier.id });
    expect(res.status).toBe(403);
    expect((await calc({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: demoTier().tier.id }, 'outsider')).status).toBe(403);
    expect(t.store.opportunity_forecasts.size).toBe(before);
  });

  it('When the catalog item or cost tier is unknown (or a supplier item id is given as a cost id), then 404', async () => {
    const { item, tier } = demoTier();
    expect((await calc({ marketplace_catalog_item_id: UNKNOWN, supplier_item_cost_id: tier.id })).status).toBe(404);
    expect((await calc({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: UNKNOWN })).status).toBe(404);
    expect((await calc({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: item.id })).status).toBe(404);
  });

  it('When the body is wrong, then 422 with the field; no token is 401', async () => {
    const cost = demoTier().tier.id;
    const cases: [object, string][] = [
      [{ supplier_item_cost_id: cost }, 'marketplace_catalog_item_id'],
      [{ marketplace_catalog_item_id: usItem().id }, 'supplier_item_cost_id'],
      [{ marketplace_catalog_item_id: 'abc', supplier_item_cost_id: cost }, 'marketplace_catalog_item_id'],
    ];
    for (const [body, field] of cases) {
      const res = await calc(body);
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body.errors ?? {}).join(' ') + res.body.message, field).toContain(field);
    }
    expect((await request(t.app).post(CALC).send({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: cost })).status).toBe(401);
    // A field the contract does not name is a 422 only for a client that asks for strictness.
    const strict = await calc({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: cost, type: 'wholesale' }).set('Prefer', 'strict');
    expect(strict.status).toBe(422);
    expect(Object.keys(strict.body.errors)).toEqual(['type']);
  });

  it('When a cost tier is in a currency outside the exchange table, then 422 on supplier_item_cost_id', async () => {
    const { item, tier } = demoTier();
    t.world.store.apply(() =>
      t.store.supplier_items.update(item.id, { costs: item.costs.map((c) => (c.id === tier.id ? { ...c, cost: { value: 5, currency: 'XAU' } } : c)) }),
    );
    const res = await calc({ marketplace_catalog_item_id: usItem().id, supplier_item_cost_id: tier.id });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('supplier_item_cost_id');
  });

  it('When a PUT removes a cost tier, then the forecasts on that tier go and those on the kept tiers stay', async () => {
    const item = t.store.supplier_items.get('e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e001')!;
    const [kept, ...removed] = item.costs;
    const target = usItem().id;
    for (const tier of item.costs) expect((await calc({ marketplace_catalog_item_id: target, supplier_item_cost_id: tier.id })).status).toBe(201);
    const res = await request(t.app)
      .put(`/2024-09/supplier-items/${item.id}`)
      .set(t.auth('owner'))
      .send({ costs: [{ id: kept!.id, minimum_order_quantity: kept!.minimum_order_quantity, cost: kept!.cost }] });
    expect(res.status).toBe(204);
    for (const tier of removed) expect(t.store.opportunity_forecasts.where('supplier_item_cost_id', tier.id)).toEqual([]);
    expect(t.store.opportunity_forecasts.where('supplier_item_cost_id', kept!.id).length).toBeGreaterThan(0);
  });

  it('When the supplier item is deleted, then the forecasts on its tiers go with it; deleting the merchant removes the rest', async () => {
    const seededOnPinned = t.store.opportunity_forecasts.where('supplier_item_cost_id', 'e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e001');
    expect(seededOnPinned.length).toBeGreaterThan(0);
    const del = await request(t.app).delete('/2024-09/supplier-items/e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e001').set(t.auth('owner'));
    expect(del.status).toBe(204);
    expect(t.store.opportunity_forecasts.where('supplier_item_cost_id', 'e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e001')).toEqual([]);
    expect(t.store.opportunity_forecasts.where('supplier_item_id', 'e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e001')).toEqual([]);
    expect((await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).status).toBe(204);
    expect(t.store.opportunity_forecasts.where('merchant_id', demo.merchant)).toEqual([]);
    expect(t.store.opportunity_forecasts.where('merchant_id', demo.rivalMerchant).length).toBeGreaterThan(0);
  });
});

describe('seeded opportunity forecasts', () => {
  it('When a seeded forecast is recalculated as of its calculated_at, then the model gives the same numbers (the seed uses the model)', async () => {
    const { buildForecast } = await import('../../src/areas/forecasting/calculate.js');
    const t = await testApp();
    for (const f of t.store.opportunity_forecasts.all()) {
      const item = t.store.catalog_items.get(f.marketplace_catalog_item_id)!;
      const supplierItem = t.store.supplier_items.get(f.supplier_item_id)!;
      const tier = supplierItem.costs.find((c) => c.id === f.supplier_item_cost_id)!;
      const marketplace = t.store.marketplaces.get(item.marketplace_id)!;
      expect(buildForecast(f.id, { item, marketplace, supplierItem, tier }, new Date(f.calculated_at))).toEqual(f);
    }
  });
});
