import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { byCreation } from '../../src/http/pagination.js';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});

const PATH = '/2024-09/forecasting/sales-volume-forecasts';
const DE = 'eeeeeeee-0000-4000-8000-000000000005';
const list = (query: Record<string, unknown> = {}) => request(t.app).get(PATH).query(query).set(t.auth('outsider'));

describe('listSalesVolumeForecasts', () => {
  it('When listed, then one 30-day forecast per catalog item, in catalog order, paginated, any user may read', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(t.store.catalog_items.size);
    expect(res.body.data.map((f: { marketplace_catalog_item_id: string }) => f.marketplace_catalog_item_id)).toEqual(
      t.store.catalog_items
        .all()
        .sort(byCreation)
        .slice(0, 15)
        .map((i) => i.id),
    );
    const f = res.body.data[0];
    expect(f).toMatchObject({ period_days: 30, forecast_model: 'sandbox-rank-power@1', sales_rank_observations: 30 });
    expect(f.expected_units_low).toBeLessThanOrEqual(f.expected_units);
    expect(f.expected_units).toBeLessThanOrEqual(f.expected_units_high);
    expect(Date.parse(f.period_end) - Date.parse(f.period_start)).toBe(30 * 86_400_000);
    const page2 = await list({ page: 2, per_page: 15 });
    expect(page2.body.data[0].marketplace_catalog_item_id).toBe(t.store.catalog_items.all().sort(byCreation)[15]!.id);
  });

  it('When filtered by catalog item or marketplace, then only those forecasts come back', async () => {
    const item = t.store.catalog_items.all()[9]!;
    const one = await list({ marketplace_catalog_item_id: item.id });
    expect(one.body.data).toHaveLength(1);
    expect(one.body.data[0].marketplace_catalog_item_id).toBe(item.id);
    const de = await list({ marketplace_id: DE, per_page: 100 });
    expect(de.body.meta.total).toBe(t.store.catalog_items.where('marketplace_id', DE).length);
    expect(de.body.data.every((f: { marketplace_id: string }) => f.marketplace_id === DE)).toBe(true);
    const none = await list({ marketplace_catalog_item_id: '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c' });
    expect(none.status).toBe(200);
    expect(none.body.data).toEqual([]);
  });

  it('When the period is 7, 30 or 90 days, then units scale with the period (same ranks)', async () => {
    const id = t.store.catalog_items.all()[0]!.id;
    const [week, month, quarter] = await Promise.all(
      [7, 30, 90].map(async (period_days) => (await list({ marketplace_catalog_item_id: id, period_days })).body.data[0]),
    );
    expect(week.sales_rank_average).toBe(month.sales_rank_average);
    expect(Math.abs(quarter.expected_units - month.expected_units * 3)).toBeLessThanOrEqual(2);
    expect(Math.abs(month.expected_units * 7 - week.expected_units * 30)).toBeLessThanOrEqual(30);
  });

  it('When the clock moves a day, then the forecast window moves with it', async () => {
    const id = t.store.catalog_items.all()[0]!.id;
    const before = (await list({ marketplace_catalog_item_id: id })).body.data[0];
    t.clock.advance(86_400_000);
    const after = (await list({ marketplace_catalog_item_id: id })).body.data[0];
    expect(Date.parse(after.sales_ranks_to) - Date.parse(before.sales_ranks_to)).toBe(86_400_000);
    expect(Date.parse(after.period_start) - Date.parse(before.period_start)).toBe(86_400_000);
  });

  it('When a parameter is wrong, then 422 with the field; no token is 401', async () => {
    for (const [query, field] of [
      [{ period_days: 14 }, 'period_days'],
      [{ marketplace_id: 'x' }, 'marketplace_id'],
      [{ marketplace_catalog_item_id: 'x' }, 'marketplace_catalog_item_id'],
      [{ per_page: 1000 }, 'per_page'],
    ] as const) {
      const res = await list(query);
      expect(res.status, field).toBe(422);
      expect(res.body.errors).toHaveProperty(field);
    }
    expect((await request(t.app).get(PATH)).status).toBe(401);
  });
});
