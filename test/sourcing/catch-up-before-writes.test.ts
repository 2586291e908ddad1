// Scraping finds are applied lazily, by the next operation that touches a supplier's items. An operation that
// writes those items, or reads them to calculate, must first apply the attempts that ended before it, as a read
// would: otherwise an attempt that ended before a delete brings the item back, an edit drops what an earlier attempt
// found, and a forecast reads a cost the item no longer shows.
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { supplierCatalogue, type FoundEntry } from '../../src/areas/sourcing/rules/supplier-catalogue.js';
import type { ScrapingRequestRecord } from '../../src/areas/sourcing/record-types.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { firstSucceeds, foundBy, scrapedSupplier, skusFoundBy } from './support/scraping.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const CATALOG_ITEM = '0627d02b-2539-4fc3-9cec-3f208482b961';

interface Item {
  id: string;
  sku: string;
  description: string | null;
  stock_quantity: number | null;
  costs: { id: string; minimum_order_quantity: number; cost: { value: number; currency: string } }[];
}

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  expect(t.errors).toEqual([]);
});

const api = () => request(t.app);

const itemsOf = async (supplierId: string): Promise<Item[]> => {
  const res = await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant, supplier_id: supplierId, per_page: 100 }).set(t.auth('owner'));
  expect(res.status).toBe(200);
  return res.body.data;
};
const itemById = async (id: string): Promise<Item> => (await api().get(`/2024-09/supplier-items/${id}`).set(t.auth('owner'))).body.data;

/** Whether what an attempt found differs from what another found (a tier's cost or the stock). */
const differs = (a: FoundEntry, b: FoundEntry) => a.tiers.some((tier, i) => tier.value !== b.tiers[i]!.value) || a.stock_units !== b.stock_units;

/** A SKU attempts 1 and 2 both find, attempt 2 with other costs or stock: the item attempt 1 makes, attempt 2 changes. */
const changedBySecond = (supplierId: string, scraping: ScrapingRequestRecord): string | undefined =>
  supplierCatalogue(supplierId).find((e) => {
    const [first, second] = [foundBy(supplierId, scraping, 1, e.sku), foundBy(supplierId, scraping, 2, e.sku)];
    return first !== null && second !== null && differs(first, second);
  })?.sku;

describe("A write to a supplier's items applies first the scraping attempts that ended before it, as a read does", () => {
  it('When items are deleted after attempts that found them ended, then they stay deleted', async () => {
    const { supplierId } = await scrapedSupplier(t, 5, firstSucceeds);
    t.clock.advance(30 * MINUTE);
    const items = await itemsOf(supplierId);
    expect(items.length).toBeGreaterThan(0);

    // Attempts 2 to 5 end; the items are deleted without being read first.
    t.clock.advance(4 * HOUR);
    for (const item of items) expect((await api().delete(`/2024-09/supplier-items/${item.id}`).set(t.auth('owner'))).status).toBe(204);

    // Every attempt ended before the deletes and none is left to run: no deleted SKU comes back (SKUs that only the
    // later attempts found are items of their own, which were not deleted).
    const deleted = new Set(items.map((i) => i.sku));
    expect((await itemsOf(supplierId)).filter((i) => deleted.has(i.sku))).toEqual([]);
  });

  it('When an item is edited after an attempt that found it ended, then it keeps what that attempt found in the fields the edit does not send', async () => {
    const { supplierId, scraping } = await scrapedSupplier(t, 2, (id, r) => changedBySecond(id, r) !== undefined);
    t.clock.advance(30 * MINUTE);
    const sku = changedBySecond(supplierId, scraping);
    const item = (await itemsOf(supplierId)).find((i) => i.sku === sku);
    const found = foundBy(supplierId, scraping, 2, item!.sku)!;

    t.clock.advance(HOUR);
    expect((await api().put(`/2024-09/supplier-items/${item!.id}`).set(t.auth('owner')).send({ description: 'Edited' })).status).toBe(204);

    const edited = await itemById(item!.id);
    expect(edited.description).toBe('Edited');
    for (const tier of found.tiers) {
      expect(edited.costs.find((c) => c.minimum_order_quantity === tier.minimum_order_quantity)?.cost.value).toBe(tier.value);
    }
    expect(edited.stock_quantity).toBe(found.stock_units ?? item!.stock_quantity);
  });

  it('When a forecast is calculated after an attempt changed its cost tier, then it reads the cost and stock the item shows', async () => {
    const { supplierId, scraping } = await scrapedSupplier(t, 2, (id, r) => changedBySecond(id, r) !== undefined);
    t.clock.advance(30 * MINUTE);
    const sku = changedBySecond(supplierId, scraping);
    const item = (await itemsOf(supplierId)).find((i) => i.sku === sku);

    t.clock.advance(HOUR);
    const tier = item!.costs[0]!;
    const res = await api()
      .post('/2024-09/forecasting/opportunity-forecasts/calculate')
      .set(t.auth('owner'))
      .send({ marketplace_catalog_item_id: CATALOG_ITEM, supplier_item_cost_id: tier.id });
    expect(res.status).toBe(201);

    const shown = await itemById(item!.id);
    const shownTier = shown.costs.find((c) => c.id === tier.id)!;
    expect(res.body.data.forecast_inputs).toMatchObject({ unit_cost: shownTier.cost.value, supplier_stock_units: shown.stock_quantity });
  });

  it('When an item is created with a SKU an attempt that ended before already found, then 422 sku, as after a read', async () => {
    const { supplierId, scraping } = await scrapedSupplier(t, 1, firstSucceeds);
    const [sku] = skusFoundBy(supplierId, scraping, 1);

    t.clock.advance(30 * MINUTE);
    const res = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, supplier_id: supplierId, sku, costs: [{ minimum_order_quantity: 1, cost: { value: 1, currency: 'USD' } }] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('sku');
    expect((await itemsOf(supplierId)).filter((i) => i.sku === sku)).toHaveLength(1);
  });
});
