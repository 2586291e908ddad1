import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { aProduct } from '../helpers/builders.js';

const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
let t: TestApp;
let productId: string;
beforeEach(async () => {
  t = await testApp();
  productId = (await aProduct(t)).id;
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});
const api = () => request(t.app);
const identifiersOf = async (id: string) => (await api().get(`/2024-09/products/${id}`).set(t.auth('owner'))).body.data.identifiers;

describe('createProductIdentifier', () => {
  it('When an identifier is added, then 201 and the product lists it; after deletion (204) it no longer does', async () => {
    const res = await api().post(`/2024-09/products/${productId}/identifiers`).set(t.auth('member')).send({ type: 'EAN', value: '0036000291452' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ product_id: productId, type: 'EAN', value: '0036000291452' });
    expect(await identifiersOf(productId)).toEqual([res.body.data]);
    const gone = await api().delete(`/2024-09/products/identifiers/${res.body.data.id}`).set(t.auth('member'));
    expect(gone.status).toBe(204);
    expect(await identifiersOf(productId)).toEqual([]);
    expect((await api().delete(`/2024-09/products/identifiers/${res.body.data.id}`).set(t.auth('member'))).status).toBe(404);
  });

  it('When the same type and value is added twice, then 422 errors.value; another type with that value is fine', async () => {
    await api().post(`/2024-09/products/${productId}/identifiers`).set(t.auth('owner')).send({ type: 'UPC', value: '036000291452' });
    const dup = await api().post(`/2024-09/products/${productId}/identifiers`).set(t.auth('owner')).send({ type: 'UPC', value: '036000291452' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors).toEqual({ value: ['The value has already been taken.'] });
    expect((await api().post(`/2024-09/products/${productId}/identifiers`).set(t.auth('owner')).send({ type: 'GTIN', value: '036000291452' })).status).toBe(
      201,
    );
  });

  it('When the type is not one of UPC, EAN, GTIN, ISBN or the value is missing, then 422 on those fields', async () => {
    const res = await api().post(`/2024-09/products/${productId}/identifiers`).set(t.auth('owner')).send({ type: 'ASIN' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['type', 'value']);
  });

  it('When the product is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    const body = { type: 'UPC', value: '1' };
    expect((await api().post(`/2024-09/products/${UNKNOWN}/identifiers`).set(t.auth('owner')).send(body)).status).toBe(404);
    expect((await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/identifiers`).set(t.auth('rival')).send(body)).status).toBe(403);
    expect((await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/identifiers`).send(body)).status).toBe(401);
  });
});

describe('deleteProductIdentifier', () => {
  it('When the identifier belongs to another merchant, then 403; unknown or malformed, then 404; no token, then 401', async () => {
    const seeded = t.store.product_identifiers.where('product_id', DEMO_PRODUCT_ID)[0]!;
    expect((await api().delete(`/2024-09/products/identifiers/${seeded.id}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().delete(`/2024-09/products/identifiers/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().delete('/2024-09/products/identifiers/xyz').set(t.auth('owner'))).status).toBe(404);
    expect((await api().delete(`/2024-09/products/identifiers/${seeded.id}`)).status).toBe(401);
    expect(t.store.product_identifiers.has(seeded.id)).toBe(true);
  });

  it('When GET is sent to the identifiers path, then it is not taken for a product id: 405', async () => {
    const seeded = t.store.product_identifiers.where('product_id', DEMO_PRODUCT_ID)[0]!;
    const res = await api().get(`/2024-09/products/identifiers/${seeded.id}`).set(t.auth('owner'));
    expect(res.status).toBe(405);
  });
});
