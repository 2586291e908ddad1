import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

/** A seeded forecast and the supplier item whose tier it was calculated on. */
function forecastAndItem() {
  const forecast = t.store.opportunity_forecasts.all()[0]!;
  const item = t.store.supplier_items.byKey('cost_id', forecast.supplier_item_cost_id)[0]!;
  return { forecast, item };
}
const forecastsOn = (costIds: readonly string[]) => costIds.flatMap((id) => t.store.opportunity_forecasts.where('supplier_item_cost_id', id));

describe('forecasts follow the cost tiers they were calculated on', () => {
  it('When a PUT drops the tier, then its forecasts go; forecasts on kept tiers stay', async () => {
    const { forecast, item } = forecastAndItem();
    const kept = item.costs.filter((c) => c.id !== forecast.supplier_item_cost_id);
    const keptForecasts = forecastsOn(kept.map((c) => c.id)).length;
    const res = await request(t.app)
      .put(`/2024-09/supplier-items/${item.id}`)
      .set(t.auth('owner'))
      .send({ costs: kept.map((c) => ({ id: c.id, minimum_order_quantity: c.minimum_order_quantity, cost: c.cost })) });
    expect(res.status).toBe(204);
    expect(t.store.opportunity_forecasts.has(forecast.id)).toBe(false);
    expect(forecastsOn(kept.map((c) => c.id))).toHaveLength(keptForecasts);
  });

  it('When a PUT resends every tier unchanged, then no forecast is removed', async () => {
    const { forecast, item } = forecastAndItem();
    const res = await request(t.app)
      .put(`/2024-09/supplier-items/${item.id}`)
      .set(t.auth('owner'))
      .send({ costs: item.costs.map((c) => ({ minimum_order_quantity: c.minimum_order_quantity, cost: c.cost })) });
    expect(res.status).toBe(204);
    expect(t.store.opportunity_forecasts.has(forecast.id)).toBe(true);
  });

  it('When the supplier item is deleted, then every forecast on its tiers goes', async () => {
    const { item } = forecastAndItem();
    expect(forecastsOn(item.costs.map((c) => c.id)).length).toBeGreaterThan(0);
    expect((await request(t.app).delete(`/2024-09/supplier-items/${item.id}`).set(t.auth('owner'))).status).toBe(204);
    expect(forecastsOn(item.costs.map((c) => c.id))).toEqual([]);
  });

  it('When the supplier is deleted, then every forecast on its items goes', async () => {
    const { item } = forecastAndItem();
    const costIds = t.store.supplier_items.where('supplier_id', item.supplier_id).flatMap((i) => i.costs.map((c) => c.id));
    expect((await request(t.app).delete(`/2024-09/suppliers/${item.supplier_id}`).set(t.auth('owner'))).status).toBe(204);
    expect(forecastsOn(costIds)).toEqual([]);
    expect(t.errors).toEqual([]);
  });
});
