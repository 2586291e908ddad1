import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_COST_ID, DEMO_SUPPLIER_ITEM_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aSupplierItem } from '../helpers/builders.js';

const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
const tier = (minimum_order_quantity: number, value: number, currency = 'USD') => ({ minimum_order_quantity, cost: { value, currency } });
interface Tier {
  id: string;
  minimum_order_quantity: number;
  cost: { value: number; currency: string };
}

let t: TestApp;
let rivalSupplierId: string;
let rivalProductId: string;
beforeEach(async () => {
  t = await testApp();
  rivalSupplierId = t.store.suppliers.where('merchant_id', demo.rivalMerchant)[0]!.id;
  rivalProductId = t.store.products.where('merchant_id', demo.rivalMerchant)[0]!.id;
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});
const api = () => request(t.app);
const base = () => ({ merchant_id: demo.merchant, supplier_id: DEMO_SUPPLIER_ID, costs: [tier(1, 10), tier(12, 9)] });
/** A supplier item of the demo supplier with two cost tiers in its currency. */
const newItem = (sku: string | null, extra: Parameters<typeof aSupplierItem>[1] = {}) => aSupplierItem(t, { ...base(), sku, ...extra });
const getItem = async (id: string) => (await api().get(`/2024-09/supplier-items/${id}`).set(t.auth('owner'))).body.data;

describe('listSupplierItems', () => {
  it('When the demo merchant is listed, then 200 with items of several tiers each, in creation order', async () => {
    const res = await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant, per_page: 100 }).set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBeGreaterThanOrEqual(90);
    expect(res.body.data.every((i: { costs: Tier[] }) => i.costs.length >= 2)).toBe(true);
    const stamps = res.body.data.map((i: { created_at: string }) => i.created_at);
    expect([...stamps].sort()).toEqual(stamps);
  });

  it('When supplier_id, product_id and q filter, then only matching items come back', async () => {
    const made = await newItem('FILTER-Q-1', { product_id: DEMO_PRODUCT_ID, description: 'Titanium Spork' });
    const q = { merchant_id: demo.merchant };
    const bySupplier = await api()
      .get('/2024-09/supplier-items')
      .query({ ...q, supplier_id: DEMO_SUPPLIER_ID, per_page: 100 })
      .set(t.auth('owner'));
    expect(bySupplier.body.data.every((i: { supplier_id: string }) => i.supplier_id === DEMO_SUPPLIER_ID)).toBe(true);
    const byProduct = await api()
      .get('/2024-09/supplier-items')
      .query({ ...q, product_id: DEMO_PRODUCT_ID })
      .set(t.auth('owner'));
    expect(byProduct.body.data.map((i: { id: string }) => i.id)).toContain(made.id);
    expect(byProduct.body.data.every((i: { product_id: string }) => i.product_id === DEMO_PRODUCT_ID)).toBe(true);
    const byText = await api()
      .get('/2024-09/supplier-items')
      .query({ ...q, q: 'titanium spork' })
      .set(t.auth('owner'));
    expect(byText.body.data.map((i: { id: string }) => i.id)).toEqual([made.id]);
    const bySku = await api()
      .get('/2024-09/supplier-items')
      .query({ ...q, q: 'filter-q' })
      .set(t.auth('owner'));
    expect(bySku.body.data.map((i: { id: string }) => i.id)).toEqual([made.id]);
    const foreign = await api()
      .get('/2024-09/supplier-items')
      .query({ ...q, supplier_id: rivalSupplierId })
      .set(t.auth('owner'));
    expect(foreign.body.data).toEqual([]);
  });

  it('When page is 0, per_page 101 or supplier_id malformed, then 422; unknown merchant 404; another 403; no token 401', async () => {
    const bad = await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant, page: 0, per_page: 101, supplier_id: 'x' }).set(t.auth('owner'));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'per_page', 'supplier_id']);
    expect((await api().get('/2024-09/supplier-items').query({ merchant_id: UNKNOWN }).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant }).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant })).status).toBe(401);
  });
});

describe('createSupplierItem', () => {
  it('When an item is created, then 201 with a distinct id per tier, tiers ordered by quantity, and byKey finds it by tier id', async () => {
    const res = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('member'))
      .send({ ...base(), sku: 'NEW-ITEM', description: null, costs: [tier(24, 8), tier(1, 10), tier(6, 9.5)] });
    expect(res.status).toBe(201);
    const item = res.body.data;
    expect(item).toMatchObject({ sku: 'NEW-ITEM', description: null, product_id: null, identifiers: [] });
    expect(item.costs.map((c: Tier) => c.minimum_order_quantity)).toEqual([1, 6, 24]);
    expect(new Set(item.costs.map((c: Tier) => c.id)).size).toBe(3);
    for (const c of item.costs) expect(t.store.supplier_items.byKey('cost_id', c.id).map((i) => i.id)).toEqual([item.id]);
    expect(await getItem(item.id)).toEqual(item);
  });

  it('When supplier_id or product_id belongs to another merchant or does not exist, then 422 on that field', async () => {
    const foreign = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ ...base(), sku: 'F-1', supplier_id: rivalSupplierId, product_id: rivalProductId });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual({ supplier_id: ['The selected supplier id is invalid.'], product_id: ['The selected product id is invalid.'] });
    const unknown = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ ...base(), sku: 'F-2', supplier_id: UNKNOWN, product_id: UNKNOWN });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.errors).sort()).toEqual(['product_id', 'supplier_id']);
  });

  it('When quantities repeat, a tier carries an id, or the SKU is taken within the supplier, then 422 on each field', async () => {
    await newItem('TAKEN-SKU');
    const res = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ ...base(), sku: 'TAKEN-SKU', costs: [{ id: UNKNOWN, ...tier(1, 5) }, tier(6, 4), tier(6, 3)] });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['costs.0.id', 'costs.2.minimum_order_quantity', 'sku']);
    expect(res.body.errors['costs.2.minimum_order_quantity']).toEqual(['The costs.2.minimum_order_quantity field has a duplicate value.']);
    // A null SKU is not a SKU: any number of items may have none.
    await newItem(null);
    await newItem(null);
  });

  it('When a section 8 bound is broken (quantity 0, cost -1, SKU of 256), or costs is empty or sku absent, then 422 field errors', async () => {
    const bounds = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ ...base(), sku: 's'.repeat(256), costs: [tier(0, 1), tier(5, -1)] });
    expect(bounds.status).toBe(422);
    expect(Object.keys(bounds.body.errors).sort()).toEqual(['costs.0.minimum_order_quantity', 'costs.1.cost.value', 'sku']);
    const empty = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ ...base(), costs: [] });
    expect(empty.status).toBe(422);
    expect(Object.keys(empty.body.errors).sort()).toEqual(['costs', 'sku']);
    const currency = await api()
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ ...base(), sku: 'C-1', costs: [tier(1, 1, 'usd')] });
    expect(Object.keys(currency.body.errors)).toEqual(['costs.0.cost.currency']);
  });

  it('When the merchant is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    expect(
      (
        await api()
          .post('/2024-09/supplier-items')
          .set(t.auth('owner'))
          .send({ ...base(), sku: null, merchant_id: UNKNOWN })
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .post('/2024-09/supplier-items')
          .set(t.auth('rival'))
          .send({ ...base(), sku: null })
      ).status,
    ).toBe(403);
    expect(
      (
        await api()
          .post('/2024-09/supplier-items')
          .send({ ...base(), sku: null })
      ).status,
    ).toBe(401);
  });
});

describe('getSupplierItem', () => {
  it('When the demo item is read, then its pinned tier id and identifiers are there', async () => {
    const item = await getItem(DEMO_SUPPLIER_ITEM_ID);
    expect(item.costs[0].id).toBe(DEMO_SUPPLIER_ITEM_COST_ID);
    expect(Array.isArray(item.identifiers)).toBe(true);
  });

  it('When the item is unknown or malformed, then 404; of another merchant, then 403; no token, then 401', async () => {
    expect((await api().get(`/2024-09/supplier-items/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get('/2024-09/supplier-items/42').set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`)).status).toBe(401);
  });
});

describe('updateSupplierItem and the tier-id rule', () => {
  it('When the same tiers are sent again without ids, then 204 and every tier keeps its id', async () => {
    const item = await newItem('TIER-SAME');
    const res = await api()
      .put(`/2024-09/supplier-items/${item.id}`)
      .set(t.auth('owner'))
      .send({ costs: [tier(12, 8.5), tier(1, 9.5)] });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = await getItem(item.id);
    expect(after.costs.map((c: Tier) => c.id)).toEqual(item.costs.map((c) => c.id));
    expect(after.costs.map((c: Tier) => c.cost.value)).toEqual([9.5, 8.5]);
  });

  it('When an item is PUT back exactly as it was read, then 204 and nothing changes, its updated_at included', async () => {
    const item = await newItem('ROUND-TRIP', { description: 'As read', stock_quantity: 7 });
    t.clock.advance(1000);
    const read = await getItem(item.id);
    expect((await api().put(`/2024-09/supplier-items/${item.id}`).set(t.auth('owner')).send(read)).status).toBe(204);
    expect(await getItem(item.id)).toEqual(read);
  });

  it('When a tier is sent with its id and a new quantity, then it keeps the id; a new quantity gets a new id; unsent tiers go', async () => {
    const item = await newItem('TIER-MIX');
    const [one, twelve] = item.costs;
    const res = await api()
      .put(`/2024-09/supplier-items/${item.id}`)
      .set(t.auth('owner'))
      .send({ costs: [{ id: one!.id, ...tier(2, 9.9) }, tier(50, 7)] });
    expect(res.status).toBe(204);
    const after = await getItem(item.id);
    expect(after.costs.map((c: Tier) => c.minimum_order_quantity)).toEqual([2, 50]);
    expect(after.costs[0].id).toBe(one!.id);
    expect(after.costs[1].id).not.toBe(twelve!.id);
    expect(t.store.supplier_items.byKey('cost_id', twelve!.id)).toEqual([]);
    expect(t.store.supplier_items.byKey('cost_id', after.costs[1].id).map((i) => i.id)).toEqual([item.id]);
  });

  it("When a tier id is another item's, or repeated, then 422 costs.N.id and nothing changes", async () => {
    const item = await newItem('TIER-BAD');
    const res = await api()
      .put(`/2024-09/supplier-items/${item.id}`)
      .set(t.auth('owner'))
      .send({
        description: 'no',
        costs: [
          { id: DEMO_SUPPLIER_ITEM_COST_ID, ...tier(1, 1) },
          { id: item.costs[0]!.id, ...tier(2, 1) },
          { id: item.costs[0]!.id, ...tier(3, 1) },
        ],
      });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['costs.0.id', 'costs.2.id']);
    expect((await getItem(item.id)).description).toBeNull();
  });

  it('When supplier_id or product_id of another merchant, a taken SKU, or a bound is broken, then 422 on those fields', async () => {
    const a = await newItem('PUT-A');
    await newItem('PUT-B');
    const refs = await api().put(`/2024-09/supplier-items/${a.id}`).set(t.auth('owner')).send({ supplier_id: rivalSupplierId, product_id: rivalProductId });
    expect(refs.status).toBe(422);
    expect(Object.keys(refs.body.errors).sort()).toEqual(['product_id', 'supplier_id']);
    const sku = await api().put(`/2024-09/supplier-items/${a.id}`).set(t.auth('owner')).send({ sku: 'PUT-B' });
    expect(sku.body.errors).toEqual({ sku: ['The sku has already been taken.'] });
    // merchant_id is not an update field: it is ignored, as the rest of a GET body sent back.
    const bounds = await api()
      .put(`/2024-09/supplier-items/${a.id}`)
      .set(t.auth('owner'))
      .send({ costs: [tier(0, -1)], merchant_id: demo.rivalMerchant });
    expect(Object.keys(bounds.body.errors).sort()).toEqual(['costs.0.cost.value', 'costs.0.minimum_order_quantity']);
    expect(bounds.headers['sandbox-ignored-fields']).toBe('body.merchant_id');
  });

  it('When the product link and description change, then the item shows them; product_id null unlinks', async () => {
    const a = await newItem('PUT-LINK');
    expect((await api().put(`/2024-09/supplier-items/${a.id}`).set(t.auth('member')).send({ product_id: DEMO_PRODUCT_ID, description: 'Linked' })).status).toBe(
      204,
    );
    expect(await getItem(a.id)).toMatchObject({ product_id: DEMO_PRODUCT_ID, description: 'Linked' });
    await api().put(`/2024-09/supplier-items/${a.id}`).set(t.auth('member')).send({ product_id: null });
    expect((await getItem(a.id)).product_id).toBeNull();
  });

  it('When the item is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    expect((await api().put(`/2024-09/supplier-items/${UNKNOWN}`).set(t.auth('owner')).send({ description: 'x' })).status).toBe(404);
    expect((await api().put(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`).set(t.auth('rival')).send({ description: 'x' })).status).toBe(403);
    expect((await api().put(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`).send({ description: 'x' })).status).toBe(401);
  });
});

describe('deleteSupplierItem', () => {
  it('When an item is deleted, then 204, its identifiers go and its tier ids find nothing', async () => {
    const item = await newItem('DEL-1');
    await api().post(`/2024-09/supplier-items/${item.id}/identifiers`).set(t.auth('owner')).send({ type: 'UPC', value: '012345678905' });
    expect((await api().delete(`/2024-09/supplier-items/${item.id}`).set(t.auth('member'))).status).toBe(204);
    expect((await api().get(`/2024-09/supplier-items/${item.id}`).set(t.auth('owner'))).status).toBe(404);
    expect(t.store.supplier_item_identifiers.where('supplier_item_id', item.id)).toEqual([]);
    for (const c of item.costs) expect(t.store.supplier_items.byKey('cost_id', c.id)).toEqual([]);
  });

  it('When the item is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    expect((await api().delete(`/2024-09/supplier-items/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().delete(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().delete(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`)).status).toBe(401);
  });
});

describe('supplier item identifiers', () => {
  it('When an identifier is added (201), then the item lists it; deleted (204), then it does not', async () => {
    const item = await newItem('IDS-1');
    const res = await api().post(`/2024-09/supplier-items/${item.id}/identifiers`).set(t.auth('member')).send({ type: 'GTIN', value: '00036000291452' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ supplier_item_id: item.id, type: 'GTIN', value: '00036000291452' });
    expect((await getItem(item.id)).identifiers).toEqual([res.body.data]);
    expect((await api().delete(`/2024-09/supplier-items/identifiers/${res.body.data.id}`).set(t.auth('member'))).status).toBe(204);
    expect((await getItem(item.id)).identifiers).toEqual([]);
  });

  it('When the same identifier is added twice, then 422 errors.value; a bad type, then 422 errors.type', async () => {
    const item = await newItem('IDS-2');
    await api().post(`/2024-09/supplier-items/${item.id}/identifiers`).set(t.auth('owner')).send({ type: 'EAN', value: '1' });
    const dup = await api().post(`/2024-09/supplier-items/${item.id}/identifiers`).set(t.auth('owner')).send({ type: 'EAN', value: '1' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ value: ['The value has already been taken.'] });
    const type = await api().post(`/2024-09/supplier-items/${item.id}/identifiers`).set(t.auth('owner')).send({ type: 'upc', value: '1' });
    expect(Object.keys(type.body.errors)).toEqual(['type']);
  });

  it('When the item or identifier is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    const body = { type: 'UPC', value: '9' };
    expect((await api().post(`/2024-09/supplier-items/${UNKNOWN}/identifiers`).set(t.auth('owner')).send(body)).status).toBe(404);
    expect((await api().post(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}/identifiers`).set(t.auth('rival')).send(body)).status).toBe(403);
    expect((await api().post(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}/identifiers`).send(body)).status).toBe(401);
    const seeded = t.store.supplier_item_identifiers.all().find((i) => t.store.supplier_items.get(i.supplier_item_id)?.merchant_id === demo.merchant)!;
    expect((await api().delete(`/2024-09/supplier-items/identifiers/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().delete(`/2024-09/supplier-items/identifiers/${seeded.id}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().delete(`/2024-09/supplier-items/identifiers/${seeded.id}`)).status).toBe(401);
    expect(t.store.supplier_item_identifiers.has(seeded.id)).toBe(true);
  });
});
