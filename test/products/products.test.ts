import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aProduct } from '../helpers/builders.js';

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

describe('listProducts', () => {
  it('When the owner lists the demo merchant, then 200 with a Laravel page in creation order and identifiers joined', async () => {
    const res = await api().get('/2024-09/products').query({ merchant_id: demo.merchant, per_page: 10 }).set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(10);
    expect(res.body.meta).toMatchObject({ current_page: 1, per_page: 10, from: 1, to: 10 });
    expect(res.body.meta.total).toBeGreaterThanOrEqual(40);
    const stamps = res.body.data.map((p: { created_at: string }) => p.created_at);
    expect([...stamps].sort()).toEqual(stamps);
    expect(res.body.data.every((p: { merchant_id: string }) => p.merchant_id === demo.merchant)).toBe(true);
    const next = new URL(res.body.links.next);
    expect(next.searchParams.get('merchant_id')).toBe(demo.merchant);
    const page2 = await api()
      .get(next.pathname + next.search)
      .set(t.auth('member'));
    expect(page2.status).toBe(200);
    expect(page2.body.meta.from).toBe(11);
    expect(page2.body.data[0].id).not.toBe(res.body.data[0].id);
  });

  it('When q and sku filter, then q matches title or SKU case-insensitively and sku matches exactly', async () => {
    const made = await aProduct(t, { sku: 'FLT-Lantern-77', title: 'Product FLT' });
    const byQ = await api().get('/2024-09/products').query({ merchant_id: demo.merchant, q: 'flt-lantern' }).set(t.auth('owner'));
    expect(byQ.body.data.map((p: { id: string }) => p.id)).toEqual([made.id]);
    const byTitle = await api().get('/2024-09/products').query({ merchant_id: demo.merchant, q: 'PRODUCT FLT' }).set(t.auth('owner'));
    expect(byTitle.body.data.map((p: { id: string }) => p.id)).toEqual([made.id]);
    const exact = await api().get('/2024-09/products').query({ merchant_id: demo.merchant, sku: 'FLT-Lantern-77' }).set(t.auth('owner'));
    expect(exact.body.data).toHaveLength(1);
    const wrongCase = await api().get('/2024-09/products').query({ merchant_id: demo.merchant, sku: 'flt-lantern-77' }).set(t.auth('owner'));
    expect(wrongCase.body.data).toEqual([]);
  });

  it('When page is 0 or per_page is 101, then 422 with a field error each', async () => {
    const res = await api().get('/2024-09/products').query({ merchant_id: demo.merchant, page: 0, per_page: 101 }).set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('page');
    expect(res.body.errors).toHaveProperty('per_page');
  });

  it('When merchant_id is missing, then 422; unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    expect((await api().get('/2024-09/products').set(t.auth('owner'))).body.errors).toHaveProperty('merchant_id');
    expect((await api().get('/2024-09/products').query({ merchant_id: UNKNOWN }).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get('/2024-09/products').query({ merchant_id: demo.rivalMerchant }).set(t.auth('owner'))).status).toBe(403);
    expect((await api().get('/2024-09/products').query({ merchant_id: demo.merchant }).set(t.auth('outsider'))).status).toBe(403);
    expect((await api().get('/2024-09/products').query({ merchant_id: demo.merchant })).status).toBe(401);
  });
});

describe('createProduct', () => {
  it('When a member creates a product, then 201 with no identifiers and no images, and it can be read back', async () => {
    const res = await api().post('/2024-09/products').set(t.auth('member')).send({ merchant_id: demo.merchant, sku: 'NEW-1', title: 'New one' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      merchant_id: demo.merchant,
      sku: 'NEW-1',
      identifiers: [],
      main_image_id: null,
      main_image_url: null,
      thumbnail_image_id: null,
      thumbnail_image_url: null,
    });
    const got = await api().get(`/2024-09/products/${res.body.data.id}`).set(t.auth('owner'));
    expect(got.body.data).toEqual(res.body.data);
  });

  it('When the SKU is taken within the merchant, then 422 errors.sku; the same SKU at another merchant is fine', async () => {
    await aProduct(t, { sku: 'DUP-SKU' });
    const dup = await api().post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant, sku: 'DUP-SKU', title: 'Again' });
    expect(dup.status).toBe(422);
    expect(dup.body).toEqual({ message: 'The sku has already been taken.', errors: { sku: ['The sku has already been taken.'] } });
    await aProduct(t, { sku: 'DUP-SKU', merchant_id: demo.rivalMerchant });
  });

  it('When the SKU has 256 characters, then 422 errors.sku; 255 is accepted', async () => {
    const long = await api()
      .post('/2024-09/products')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, sku: 'x'.repeat(256), title: 'Long' });
    expect(long.status).toBe(422);
    expect(long.body.errors).toHaveProperty('sku');
    await aProduct(t, { sku: 'y'.repeat(255) });
  });

  it('When fields are missing, then 422 naming each; an unknown field is ignored and named in the header', async () => {
    const res = await api().post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant, colour: 'red' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['sku', 'title']);
    expect(res.headers['sandbox-ignored-fields']).toBe('body.colour');
  });

  it("When merchant_id is another merchant's id as a urn:uuid:, then 422 errors.merchant_id and no product is made for it", async () => {
    const merchant_id = `urn:uuid:${demo.rivalMerchant}`;
    const res = await api().post('/2024-09/products').set(t.auth('outsider')).send({ merchant_id, sku: 'URN-1', title: 'Z' });
    expect([res.status, Object.keys(res.body.errors ?? {})]).toEqual([422, ['merchant_id']]);
    const list = await api().get('/2024-09/products').query({ merchant_id }).set(t.auth('outsider'));
    expect([list.status, Object.keys(list.body.errors ?? {})]).toEqual([422, ['merchant_id']]);
    expect(t.store.products.where('sku', 'URN-1')).toEqual([]);
  });

  it('When the merchant is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    const body = { sku: 'Z-1', title: 'Z' };
    expect(
      (
        await api()
          .post('/2024-09/products')
          .set(t.auth('owner'))
          .send({ ...body, merchant_id: UNKNOWN })
      ).status,
    ).toBe(404);
    expect(
      (
        await api()
          .post('/2024-09/products')
          .set(t.auth('rival'))
          .send({ ...body, merchant_id: demo.merchant })
      ).status,
    ).toBe(403);
    expect(
      (
        await api()
          .post('/2024-09/products')
          .send({ ...body, merchant_id: demo.merchant })
      ).status,
    ).toBe(401);
  });
});

describe('getProduct', () => {
  it('When the demo product is read, then its identifiers and main and thumbnail image URLs are there', async () => {
    const res = await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}`).set(t.auth('owner'));
    expect(res.status).toBe(200);
    expect(res.body.data.identifiers.length).toBeGreaterThan(0);
    const images = await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner'));
    const byId = (id: string) => images.body.data.find((i: { id: string }) => i.id === id);
    expect(res.body.data.main_image_id).not.toBeNull();
    expect(res.body.data.main_image_url).toBe(byId(res.body.data.main_image_id).url);
    expect(res.body.data.thumbnail_image_id).not.toBeNull();
    expect(res.body.data.thumbnail_image_url).toBe(byId(res.body.data.thumbnail_image_id).url);
  });

  it('When the product is unknown or malformed, then 404; of another merchant, then 403; no token, then 401', async () => {
    expect((await api().get(`/2024-09/products/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get('/2024-09/products/nope').set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}`)).status).toBe(401);
  });
});

describe('updateProduct', () => {
  it('When fields are sent, then 204 with an empty body, only those fields change and updated_at moves', async () => {
    const p = await aProduct(t, { sku: 'UPD-1' });
    t.clock.advance(1000);
    const res = await api().put(`/2024-09/products/${p.id}`).set(t.auth('member')).send({ title: 'Renamed' });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const got = (await api().get(`/2024-09/products/${p.id}`).set(t.auth('owner'))).body.data;
    expect(got).toMatchObject({ sku: 'UPD-1', title: 'Renamed' });
    expect(got.updated_at > got.created_at).toBe(true);
  });

  it('When a product is PUT back exactly as it was read, then 204 and its updated_at stays what it was', async () => {
    const p = await aProduct(t, { sku: 'SAME-1' });
    t.clock.advance(1000);
    const read = (await api().get(`/2024-09/products/${p.id}`).set(t.auth('owner'))).body.data;
    expect((await api().put(`/2024-09/products/${p.id}`).set(t.auth('owner')).send(read)).status).toBe(204);
    expect((await api().put(`/2024-09/products/${p.id}`).set(t.auth('owner')).send({})).status).toBe(204);
    expect((await api().get(`/2024-09/products/${p.id}`).set(t.auth('owner'))).body.data).toEqual(read);
  });

  it('When the SKU is changed to one another product uses, then 422 errors.sku; keeping its own SKU is fine', async () => {
    const a = await aProduct(t, { sku: 'PUT-A' });
    await aProduct(t, { sku: 'PUT-B' });
    const taken = await api().put(`/2024-09/products/${a.id}`).set(t.auth('owner')).send({ sku: 'PUT-B' });
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ sku: ['The sku has already been taken.'] });
    expect((await api().put(`/2024-09/products/${a.id}`).set(t.auth('owner')).send({ sku: 'PUT-A' })).status).toBe(204);
    expect(
      (
        await api()
          .put(`/2024-09/products/${a.id}`)
          .set(t.auth('owner'))
          .send({ sku: 's'.repeat(256) })
      ).body.errors,
    ).toHaveProperty('sku');
  });

  it('When main_image_id names an image of another product, then 422 on that field and nothing changes', async () => {
    const other = (await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner'))).body.data[0];
    const p = await aProduct(t, { title: 'Before' });
    const res = await api()
      .put(`/2024-09/products/${p.id}`)
      .set(t.auth('owner'))
      .send({ title: 'Should not stick', main_image_id: other.id, thumbnail_image_id: UNKNOWN });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['main_image_id', 'thumbnail_image_id']);
    expect((await api().get(`/2024-09/products/${p.id}`).set(t.auth('owner'))).body.data.title).toBe('Before');
  });

  it('When the product is unknown, then 404; of another merchant, then 403; no token, then 401', async () => {
    expect((await api().put(`/2024-09/products/${UNKNOWN}`).set(t.auth('owner')).send({ title: 'x' })).status).toBe(404);
    expect((await api().put(`/2024-09/products/${DEMO_PRODUCT_ID}`).set(t.auth('rival')).send({ title: 'x' })).status).toBe(403);
    expect((await api().put(`/2024-09/products/${DEMO_PRODUCT_ID}`).send({ title: 'x' })).status).toBe(401);
  });
});

describe('deleteProduct', () => {
  it('When a product is deleted, then 204, its identifiers and images go, and supplier items keep existing unlinked', async () => {
    const linked = t.store.supplier_items.all().find((i) => i.product_id !== null && i.merchant_id === demo.merchant)!;
    const productId = linked.product_id!;
    expect(t.store.product_identifiers.where('product_id', productId).length).toBeGreaterThan(0);
    const res = await api().delete(`/2024-09/products/${productId}`).set(t.auth('owner'));
    expect(res.status).toBe(204);
    expect((await api().get(`/2024-09/products/${productId}`).set(t.auth('owner'))).status).toBe(404);
    expect(t.store.product_identifiers.where('product_id', productId)).toEqual([]);
    expect(t.store.product_images.where('product_id', productId)).toEqual([]);
    const item = await api().get(`/2024-09/supplier-items/${linked.id}`).set(t.auth('owner'));
    expect(item.status).toBe(200);
    expect(item.body.data.product_id).toBeNull();
    expect(t.store.supplier_items.where('product_id', productId)).toEqual([]);
  });

  it('When the product is unknown, then 404; of another merchant, then 403; no token, then 401', async () => {
    expect((await api().delete(`/2024-09/products/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().delete(`/2024-09/products/${DEMO_PRODUCT_ID}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().delete(`/2024-09/products/${DEMO_PRODUCT_ID}`)).status).toBe(401);
    expect(t.store.products.has(DEMO_PRODUCT_ID)).toBe(true);
  });
});
