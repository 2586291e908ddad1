import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aSupplier } from '../helpers/builders.js';

const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});
const api = () => request(t.app);

describe('listSuppliers', () => {
  it('When a member lists the demo merchant, then 200 with its suppliers paginated; q filters by name', async () => {
    const made = await aSupplier(t, { name: 'Zephyr Parts Unlimited' });
    const res = await api().get('/2024-09/suppliers').query({ merchant_id: demo.merchant, per_page: 2 }).set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0].id).toBe(DEMO_SUPPLIER_ID);
    expect(res.body.meta.total).toBe(5); // three seeded, the spare deleteSupplier's example names, and the one made here
    const byName = await api().get('/2024-09/suppliers').query({ merchant_id: demo.merchant, q: 'zephyr parts' }).set(t.auth('member'));
    expect(byName.body.data.map((s: { id: string }) => s.id)).toEqual([made.id]);
  });

  it('When page is 0 or per_page 101, then 422; unknown merchant 404; another merchant 403; no token 401', async () => {
    const bad = await api().get('/2024-09/suppliers').query({ merchant_id: demo.merchant, page: 0, per_page: 101 }).set(t.auth('owner'));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'per_page']);
    expect((await api().get('/2024-09/suppliers').query({ merchant_id: UNKNOWN }).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get('/2024-09/suppliers').query({ merchant_id: demo.merchant }).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get('/2024-09/suppliers').query({ merchant_id: demo.merchant })).status).toBe(401);
  });
});

describe('createSupplier', () => {
  it('When a supplier is created, then 201 and it can be read back', async () => {
    const made = await aSupplier(t, { name: 'Alpine Gear Distributors' });
    const got = await api().get(`/2024-09/suppliers/${made.id}`).set(t.auth('member'));
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(made);
  });

  it("When default_currency is 'usd' (or the name is missing), then 422 with field errors", async () => {
    const res = await api().post('/2024-09/suppliers').set(t.auth('owner')).send({ merchant_id: demo.merchant, default_currency: 'usd' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['default_currency', 'name']);
  });

  it('When the merchant is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    const body = { name: 'X', default_currency: 'USD' };
    expect(
      (
        await api()
          .post('/2024-09/suppliers')
          .set(t.auth('owner'))
          .send({ ...body, merchant_id: UNKNOWN })
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .post('/2024-09/suppliers')
          .set(t.auth('rival'))
          .send({ ...body, merchant_id: demo.merchant })
      ).status,
    ).toBe(403);
    expect(
      (
        await api()
          .post('/2024-09/suppliers')
          .send({ ...body, merchant_id: demo.merchant })
      ).status,
    ).toBe(401);
  });
});

describe('getSupplier', () => {
  it('When the supplier is unknown or malformed, then 404; of another merchant, then 403; no token, then 401', async () => {
    expect((await api().get(`/2024-09/suppliers/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get('/2024-09/suppliers/123').set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).set(t.auth('outsider'))).status).toBe(403);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`)).status).toBe(401);
  });
});

describe('updateSupplier', () => {
  it('When fields are sent, then 204 and only those change; existing tiers keep their currency', async () => {
    const before = t.store.supplier_items.where('supplier_id', DEMO_SUPPLIER_ID)[0]!.costs[0]!.cost.currency;
    const res = await api().put(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).set(t.auth('member')).send({ default_currency: 'CAD' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const got = (await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).set(t.auth('owner'))).body.data;
    expect(got.default_currency).toBe('CAD');
    expect(t.store.supplier_items.where('supplier_id', DEMO_SUPPLIER_ID)[0]!.costs[0]!.cost.currency).toBe(before);
  });

  it('When a supplier is PUT back exactly as it was read, then 204 and its updated_at stays what it was', async () => {
    const url = `/2024-09/suppliers/${DEMO_SUPPLIER_ID}`;
    const read = (await api().get(url).set(t.auth('owner'))).body.data;
    t.clock.advance(1000);
    expect((await api().put(url).set(t.auth('owner')).send(read)).status).toBe(204);
    expect((await api().get(url).set(t.auth('owner'))).body.data).toEqual(read);
  });

  it("When default_currency is 'usd' or name is empty, then 422; unknown 404; another merchant 403; no token 401", async () => {
    const bad = await api().put(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).set(t.auth('owner')).send({ default_currency: 'usd', name: '' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['default_currency', 'name']);
    expect((await api().put(`/2024-09/suppliers/${UNKNOWN}`).set(t.auth('owner')).send({ name: 'x' })).status).toBe(404);
    expect((await api().put(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).set(t.auth('rival')).send({ name: 'x' })).status).toBe(403);
    expect((await api().put(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).send({ name: 'x' })).status).toBe(401);
  });
});

describe('deleteSupplier', () => {
  it('When a supplier is deleted, then 204 and its items, their identifiers and its scraping requests are gone', async () => {
    const supplierId = t.store.suppliers.where('merchant_id', demo.merchant)[1]!.id;
    const itemIds = t.store.supplier_items.where('supplier_id', supplierId).map((i) => i.id);
    expect(itemIds.length).toBeGreaterThan(0);
    expect(t.store.scraping_requests.where('supplier_id', supplierId).length).toBeGreaterThan(0);
    const res = await api().delete(`/2024-09/suppliers/${supplierId}`).set(t.auth('member'));
    expect(res.status).toBe(204);
    expect((await api().get(`/2024-09/suppliers/${supplierId}`).set(t.auth('owner'))).status).toBe(404);
    expect(t.store.supplier_items.where('supplier_id', supplierId)).toEqual([]);
    expect(itemIds.flatMap((id) => t.store.supplier_item_identifiers.where('supplier_item_id', id))).toEqual([]);
    expect(t.store.scraping_requests.where('supplier_id', supplierId)).toEqual([]);
    const items = await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant, supplier_id: supplierId }).set(t.auth('owner'));
    expect(items.body.data).toEqual([]);
  });

  it('When the supplier is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    expect((await api().delete(`/2024-09/suppliers/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().delete(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().delete(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}`)).status).toBe(401);
    expect(t.store.suppliers.has(DEMO_SUPPLIER_ID)).toBe(true);
  });
});
