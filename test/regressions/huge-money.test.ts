import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const US_MARKETPLACE = 'eeeeeeee-0000-4000-8000-000000000001';

describe('huge money values', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });
  const createItem = (value: number, minimum_order_quantity = 1) =>
    request(t.app)
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({
        merchant_id: demo.merchant,
        supplier_id: DEMO_SUPPLIER_ID,
        sku: `HUGE-${value}`,
        costs: [{ minimum_order_quantity, cost: { value, currency: 'USD' } }],
      });

  it('When a cost value is 1e305, then 422 naming costs.0.cost.value', async () => {
    const res = await createItem(1e305);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['costs.0.cost.value']);
  });

  it('When a minimum_order_quantity is 1e300, then 422 naming costs.0.minimum_order_quantity', async () => {
    const res = await createItem(5, 1e300);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['costs.0.minimum_order_quantity']);
  });

  it('When the largest accepted cost and quantity are forecast, then 201 with finite numbers', async () => {
    const item = await createItem(1_000_000_000, 2147483647);
    expect(item.status).toBe(201);
    const catalogItem = t.store.catalog_items.where('marketplace_id', US_MARKETPLACE)[4]!;
    const res = await request(t.app)
      .post('/2024-09/forecasting/opportunity-forecasts/calculate')
      .set(t.auth('owner'))
      .send({ marketplace_catalog_item_id: catalogItem.id, supplier_item_cost_id: item.body.data.costs[0].id });
    expect(res.status).toBe(201);
    const numbers: number[] = [];
    JSON.stringify(res.body, (_key, value: unknown) => (typeof value === 'number' && numbers.push(value), value));
    expect(numbers.length).toBeGreaterThan(10);
    expect(numbers.every(Number.isFinite)).toBe(true);
    expect(res.body.data.risk_adjusted_thirty_day_profit_forecast_high.value).toBeLessThan(0);
    expect(t.errors).toEqual([]);
  });
});
