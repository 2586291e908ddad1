import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_ID, DEMO_SUPPLIER_ITEM_STOCK } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aSupplierItem } from '../helpers/builders.js';

const ITEMS = '/2024-09/supplier-items';
const body = (extra: Record<string, unknown> = {}) => ({
  merchant_id: demo.merchant,
  supplier_id: DEMO_SUPPLIER_ID,
  sku: null,
  costs: [{ minimum_order_quantity: 1, cost: { value: 10, currency: 'USD' } }],
  ...extra,
});

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});
const api = () => request(t.app);
const create = (extra: Record<string, unknown> = {}) => api().post(ITEMS).set(t.auth('owner')).send(body(extra));
const put = (id: string, send: Record<string, unknown>) => api().put(`${ITEMS}/${id}`).set(t.auth('owner')).send(send);
const stockOf = async (id: string) => (await api().get(`${ITEMS}/${id}`).set(t.auth('owner'))).body.data.stock_quantity;

describe('supplier item stock_quantity', () => {
  it('When an item is created without stock, then stock_quantity is null; with stock, then it is shown and stored', async () => {
    const unknown = await create();
    expect(unknown.status).toBe(201);
    expect(unknown.body.data.stock_quantity).toBeNull();
    const known = await create({ stock_quantity: 0 });
    expect(known.body.data.stock_quantity).toBe(0);
    expect(t.store.supplier_items.get(known.body.data.id)!.stock_quantity).toBe(0);
  });

  it('When a PUT leaves stock out, then it is kept; a number sets it; null clears it', async () => {
    const { id } = await aSupplierItem(t, { stock_quantity: 250 });
    expect((await put(id, { description: 'No stock sent' })).status).toBe(204);
    expect(await stockOf(id)).toBe(250);
    expect((await put(id, { stock_quantity: 12 })).status).toBe(204);
    expect(await stockOf(id)).toBe(12);
    expect((await put(id, { stock_quantity: null })).status).toBe(204);
    expect(await stockOf(id)).toBeNull();
  });

  it('When stock is negative, fractional, not a number or beyond 2^31 - 1, then 422 errors.stock_quantity and nothing changes', async () => {
    const { id } = await aSupplierItem(t, { stock_quantity: 40 });
    for (const bad of [-1, 1.5, 'many', 2 ** 31]) {
      const created = await create({ stock_quantity: bad });
      expect(created.status, String(bad)).toBe(422);
      expect(Object.keys(created.body.errors), String(bad)).toEqual(['stock_quantity']);
      const updated = await put(id, { stock_quantity: bad });
      expect(updated.status, String(bad)).toBe(422);
      expect(Object.keys(updated.body.errors), String(bad)).toEqual(['stock_quantity']);
    }
    expect(await stockOf(id)).toBe(40);
  });

  it('When the demo is seeded, then the pinned item is nearly sold out and the others mix known and unknown stock', async () => {
    expect(await stockOf(DEMO_SUPPLIER_ITEM_ID)).toBe(DEMO_SUPPLIER_ITEM_STOCK);
    const res = await api().get(ITEMS).query({ merchant_id: demo.merchant, per_page: 100 }).set(t.auth('member'));
    const stocks: (number | null)[] = res.body.data.map((i: { stock_quantity: number | null }) => i.stock_quantity);
    expect(stocks.some((s) => s === null)).toBe(true);
    expect(stocks.some((s) => s !== null && s < 25)).toBe(true);
    expect(stocks.some((s) => s !== null && s >= 1000)).toBe(true);
    expect(stocks.every((s) => s === null || (Number.isInteger(s) && s >= 0))).toBe(true);
  });
});
