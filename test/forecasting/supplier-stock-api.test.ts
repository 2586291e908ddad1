import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ITEM_COST_ID, DEMO_SUPPLIER_ITEM_STOCK } from '../../src/areas/sourcing/fixture-ids.js';
import { RISK_WEIGHTS } from '../../src/areas/forecasting/risk-score.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aSupplierItem } from '../helpers/builders.js';

const CALC = '/2024-09/forecasting/opportunity-forecasts/calculate';
const ITEMS = '/2024-09/supplier-items';
const US = 'eeeeeeee-0000-4000-8000-000000000001';
const STOCK_FACTORS = ['low_supplier_stock_under_2_months', 'low_supplier_stock_under_1_month', 'low_supplier_stock_under_1_week'];
type Forecast = {
  risk_score: number;
  risk_factors: string[];
  risk_adjusted_thirty_day_profit_forecast_high: { value: number };
  thirty_day_profit_forecast_high: { value: number };
  forecast_inputs: { supplier_stock_units: number | null; supplier_stock_days: number | null; units_expected: number };
};

describe('calculateOpportunityForecast and the supplier item stock', () => {
  let t: TestApp;
  let itemId: string;
  let costId: string;
  let catalogItemId: string;
  let dailyUnits: number;
  const calc = async () => {
    const res = await request(t.app).post(CALC).set(t.auth('member')).send({ marketplace_catalog_item_id: catalogItemId, supplier_item_cost_id: costId });
    expect(res.status).toBe(201);
    return res.body.data as Forecast;
  };
  const setStock = async (stock_quantity: number | null) =>
    expect((await request(t.app).put(`${ITEMS}/${itemId}`).set(t.auth('owner')).send({ stock_quantity })).status).toBe(204);
  const stockFactors = (f: Forecast) => f.risk_factors.filter((x) => STOCK_FACTORS.includes(x));

  beforeEach(async () => {
    t = await testApp();
    const created = await aSupplierItem(t, { sku: 'STOCK-TEST', costs: [{ minimum_order_quantity: 1, cost: { value: 4, currency: 'USD' } }] });
    itemId = created.id;
    costId = created.costs[0]!.id;
    // The US item with the most expected sales, so whole units of stock land well inside each threshold.
    const volumes = await request(t.app).get('/2024-09/forecasting/sales-volume-forecasts').query({ marketplace_id: US, per_page: 100 }).set(t.auth('member'));
    catalogItemId = [...volumes.body.data].sort((a, b) => b.expected_units - a.expected_units)[0].marketplace_catalog_item_id;
    dailyUnits = (await calc()).forecast_inputs.units_expected / 30;
    expect(dailyUnits).toBeGreaterThan(1);
  });
  afterEach(() => {
    // Every answer here is a documented one: the app logged no unexpected error.
    expect(t.errors).toEqual([]);
  });

  it('When the stock is unknown (null), then supplier_stock_units and supplier_stock_days are null and no stock factor is raised', async () => {
    const f = await calc();
    expect(f.forecast_inputs).toMatchObject({ supplier_stock_units: null, supplier_stock_days: null });
    expect(stockFactors(f)).toEqual([]);
  });

  it('When the stock lasts 3, 20, 45 or 90 days at the expected rate, then the matching factor (or none) and its weight in the score', async () => {
    await setStock(Math.round(dailyUnits * 90));
    const ample = await calc();
    expect(ample.forecast_inputs.supplier_stock_units).toBe(Math.round(dailyUnits * 90));
    expect(ample.forecast_inputs.supplier_stock_days).toBeGreaterThanOrEqual(60);
    expect(stockFactors(ample)).toEqual([]);
    const cases: [days: number, factor: keyof typeof RISK_WEIGHTS][] = [
      [45, 'low_supplier_stock_under_2_months'],
      [20, 'low_supplier_stock_under_1_month'],
      [3, 'low_supplier_stock_under_1_week'],
    ];
    for (const [days, factor] of cases) {
      await setStock(Math.round(dailyUnits * days));
      const low = await calc();
      expect(low.forecast_inputs.supplier_stock_units, factor).toBe(Math.round(dailyUnits * days));
      expect(stockFactors(low), factor).toEqual([factor]);
      expect(low.risk_score, factor).toBe(Math.min(100, ample.risk_score + RISK_WEIGHTS[factor]));
      expect(low.risk_score, factor).toBeGreaterThan(ample.risk_score);
      // Same prices, units and cost: only the risk adjustment differs.
      expect(low.thirty_day_profit_forecast_high).toEqual(ample.thirty_day_profit_forecast_high);
      expect(low.risk_adjusted_thirty_day_profit_forecast_high.value, factor).toBeLessThanOrEqual(ample.risk_adjusted_thirty_day_profit_forecast_high.value);
    }
  });

  it('When the stock is zero, then the stock lasts 0 days: under_1_week', async () => {
    await setStock(0);
    const f = await calc();
    expect(f.forecast_inputs).toMatchObject({ supplier_stock_units: 0, supplier_stock_days: 0 });
    expect(stockFactors(f)).toEqual(['low_supplier_stock_under_1_week']);
  });
});

describe('seeded opportunity forecasts and supplier stock', () => {
  it("When the demo merchant's seeded forecasts are read, then they carry the items' stock and some show low-stock factors", async () => {
    const t = await testApp();
    const forecasts = t.store.opportunity_forecasts.where('merchant_id', demo.merchant);
    for (const f of forecasts) {
      expect(f.forecast_inputs.supplier_stock_units).toBe(t.store.supplier_items.get(f.supplier_item_id)!.stock_quantity);
    }
    expect(forecasts.some((f) => f.forecast_inputs.supplier_stock_units === null)).toBe(true);
    const pinned = forecasts.find((f) => f.supplier_item_cost_id === DEMO_SUPPLIER_ITEM_COST_ID)!;
    expect(pinned.forecast_inputs.supplier_stock_units).toBe(DEMO_SUPPLIER_ITEM_STOCK);
    expect(pinned.risk_factors).toContain('low_supplier_stock_under_1_week');
    const shown = new Set(forecasts.flatMap((f) => f.risk_factors.filter((x) => STOCK_FACTORS.includes(x))));
    expect(shown.size).toBeGreaterThanOrEqual(2);
  });
});
