import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_CONNECTED_CHANNEL_ID } from '../../src/areas/channels/fixture-ids.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { supplierItemRequest } from '../helpers/builders.js';

const IGNORED = 'sandbox-ignored-fields';

describe('the tolerant reader', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });

  it('When a query parameter the contract does not name is sent, then it is ignored, named in Sandbox-Ignored-Fields and recorded in the journal', async () => {
    const res = await request(t.app).get('/2024-09/users/current?_=1700000000').set(t.auth('owner'));
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(demo.owner.id);
    expect(res.headers[IGNORED]).toBe('query._');
    const journal = await request(t.app).get('/_sandbox/requests').query({ path: '/2024-09/users/current' });
    expect(journal.body.data[0].request).toMatchObject({ query: { _: '1700000000' }, ignored: ['query._'] });
  });

  it('When nothing is ignored, then the answer has no Sandbox-Ignored-Fields header and the journal entry an empty list', async () => {
    const res = await request(t.app).get('/2024-09/users/current').set(t.auth('owner'));
    expect(res.headers[IGNORED]).toBeUndefined();
    const journal = await request(t.app).get('/_sandbox/requests').query({ path: '/2024-09/users/current' });
    expect(journal.body.data[0].request.ignored).toEqual([]);
  });

  it.each([
    ['an unknown merchant (404)', demo.merchant.replace(/a/g, 'c'), 'owner', 404],
    ["another merchant's (403)", demo.rivalMerchant, 'owner', 403],
  ] as const)(
    'When a request with a field the contract does not name is refused for %s, then neither the answer nor its journal entry names the field',
    async (_what, merchant, who, status) => {
      const res = await request(t.app).get(`/2024-09/merchants/${merchant}?_=1`).set(t.auth(who)).set('X-Request-Id', 'refused');
      expect(res.status).toBe(status);
      expect(res.headers[IGNORED]).toBeUndefined();
      const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'refused' });
      expect(journal.body.data[0].request).toMatchObject({ query: { _: '1' }, ignored: [] });
    },
  );

  it('When a request with a field the contract does not name is refused for its input (422), then the answer and its journal entry both name the field', async () => {
    const res = await request(t.app).get('/2024-09/merchants?_=1&per_page=0').set(t.auth('owner')).set('X-Request-Id', 'invalid');
    expect(res.status).toBe(422);
    expect(res.headers[IGNORED]).toBe('query._');
    const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'invalid' });
    expect(journal.body.data[0].request.ignored).toEqual(['query._']);
  });

  it('When the health probe gets a cache-buster, then 200 with the ignored header', async () => {
    const res = await request(t.app).get('/_sandbox/health?_=1');
    expect(res.status).toBe(200);
    expect(res.headers[IGNORED]).toBe('query._');
  });

  it('When a body field the contract does not name is sent, then the record is made without it and the field is named', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({ name: 'Northwind', upc: '123', id: 'mine' });
    expect(res.status).toBe(201);
    expect(res.body.data).not.toHaveProperty('upc');
    expect(res.body.data.id).not.toBe('mine');
    expect(res.headers[IGNORED]).toBe('body.upc, body.id');
    const journal = await request(t.app).get('/_sandbox/requests').query({ path: '/2024-09/merchants', method: 'POST' });
    // The journal shows what the client sent, and what was ignored of it.
    expect(journal.body.data[0].request).toMatchObject({ body: { name: 'Northwind', upc: '123', id: 'mine' }, ignored: ['body.upc', 'body.id'] });
  });

  it('When an unknown field is nested in a cost tier, then it is ignored and named with its path', async () => {
    const res = await supplierItemRequest(t, {
      costs: [{ minimum_order_quantity: 1, cost: { value: 2.5, currency: 'USD' }, note: 'first tier', created_at: '2024-01-01T00:00:00Z' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.costs[0]).not.toHaveProperty('note');
    expect(res.headers[IGNORED]).toBe('body.costs.0.note, body.costs.0.created_at');
  });

  it('When a money object carries a field the specification does not allow, then 422: money stays closed', async () => {
    const res = await request(t.app)
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({
        merchant_id: demo.merchant,
        supplier_id: DEMO_SUPPLIER_ID,
        sku: 'TOL-2',
        costs: [{ minimum_order_quantity: 1, cost: { value: 1, currency: 'USD', tax: 0 } }],
      });
    expect(res.status).toBe(422);
    expect(res.body.errors['costs.0.cost.tax']).toEqual(['The costs.0.cost.tax field is not part of the contract.']);
  });

  it('When a named field has the wrong type next to an unknown field, then 422 for the named field only', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({ name: 42, color: 'red' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['name']);
    expect(res.headers[IGNORED]).toBe('body.color');
  });

  it('When a named query parameter is out of bounds next to an unknown one, then 422 for the named one only', async () => {
    const res = await request(t.app).get('/2024-09/merchants?per_page=101&_=1').set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['per_page']);
  });

  it('When connection data names a long marketplace id, then it is stored: the specification sets no cap', async () => {
    const marketplace = 'A'.repeat(100);
    const res = await request(t.app)
      .post(`/2024-09/channels/retailer/${DEMO_CONNECTED_CHANNEL_ID}/connection-data`)
      .set(t.auth('owner'))
      .send({ access_token: 'Atza|a', refresh_token: 'Atzr|r', marketplace_id: marketplace });
    expect(res.status).toBe(200);
    expect(res.body.data.marketplace_id).toBe(marketplace);
  });

  it('When a body carries prototype-named keys or names a header cannot hold, then they are ignored like any other field', async () => {
    const body = '{"__proto__":{"admin":true},"constructor":1,"name":"Proto","caf\u00e9,x":2}';
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'application/json').send(body);
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Proto');
    expect(res.headers[IGNORED]).toBe('body.__proto__, body.constructor, body.caf%C3%A9%2Cx');
    expect(t.errors).toEqual([]);
  });

  it('When a browser on another origin gets an answer with ignored fields, then its script may read the header', async () => {
    const res = await request(t.app).get('/2024-09/users/current?_=1').set(t.auth('owner')).set('Origin', 'https://docs.example.com');
    expect(String(res.headers['access-control-expose-headers']).split(/,\s*/)).toContain('Sandbox-Ignored-Fields');
  });
});

describe('read-modify-write', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await testApp();
  });

  // The specification answers a product, supplier or supplier item update with 204; the inferred channel update with 200.
  const cases = [
    { what: 'product', path: `/2024-09/products/${DEMO_PRODUCT_ID}`, field: 'title', value: 'Renamed product', status: 204 },
    { what: 'supplier', path: `/2024-09/suppliers/${DEMO_SUPPLIER_ID}`, field: 'name', value: 'Renamed supplier', status: 204 },
    { what: 'supplier item', path: `/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`, field: 'description', value: 'Renamed item', status: 204 },
    { what: 'channel', path: `/2024-09/channels/${DEMO_CONNECTED_CHANNEL_ID}`, field: 'name', value: 'Renamed channel', status: 200 },
  ];

  for (const { what, path, field, value, status } of cases) {
    it(`When a ${what} read with GET is sent back with one field changed, then the PUT succeeds and its read-only fields are ignored`, async () => {
      const read = await request(t.app).get(path).set(t.auth('owner'));
      expect(read.status).toBe(200);
      const res = await request(t.app)
        .put(path)
        .set(t.auth('owner'))
        .send({ ...read.body.data, [field]: value });
      expect(res.status).toBe(status);
      const after = await request(t.app).get(path).set(t.auth('owner'));
      expect(after.body.data).toEqual({ ...read.body.data, [field]: value, updated_at: expect.any(String) });
      expect(String(res.headers[IGNORED]).split(', ')).toEqual(expect.arrayContaining(['body.id', 'body.created_at', 'body.updated_at']));
    });
  }

  it('When a channel PUT names another merchant, then 422: a channel stays with its merchant', async () => {
    const res = await request(t.app)
      .put(`/2024-09/channels/${DEMO_CONNECTED_CHANNEL_ID}`)
      .set(t.auth('owner'))
      .send({ name: 'Moved', merchant_id: demo.rivalMerchant, type: 'retailer' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['merchant_id']);
  });

  it('When a channel PUT carries the create body (name, merchant_id, type), then it succeeds', async () => {
    const res = await request(t.app)
      .put(`/2024-09/channels/${DEMO_CONNECTED_CHANNEL_ID}`)
      .set(t.auth('owner'))
      .send({ name: 'Same owner', merchant_id: demo.merchant, type: 'retailer' });
    expect(res.status).toBe(200);
    expect(res.headers[IGNORED]).toBeUndefined();
  });
});

describe('strict mode', () => {
  it('When a request says Prefer: strict, then an unknown query parameter answers 422 naming it', async () => {
    const t = await testApp();
    const res = await request(t.app).get('/2024-09/merchants?_=1').set(t.auth('owner')).set('Prefer', 'strict');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ _: ['The _ query parameter is not part of the contract.'] });
    expect(res.headers[IGNORED]).toBeUndefined();
  });

  it('When a request says Prefer: strict, then unknown body fields are 422s listed with the other field errors', async () => {
    const t = await testApp();
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .set('Prefer', 'strict')
      .send({ name: 'x'.repeat(256), upc: '1' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['name', 'upc']);
    expect(res.body.errors.upc).toEqual(['The upc field is not part of the contract.']);
  });

  it('When a request says Prefer: strict and sends only named fields, then it succeeds and the preference is applied', async () => {
    const t = await testApp();
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'strict').send({ name: 'Exact' });
    expect(res.status).toBe(201);
    expect(res.headers['preference-applied']).toBe('strict');
  });

  it('When the server runs strict (STRICT=1), then a read-modify-write PUT answers 422 for the read-only fields', async () => {
    const t = await testApp({ strict: true });
    const path = `/2024-09/products/${DEMO_PRODUCT_ID}`;
    const read = await request(t.app).get(path).set(t.auth('owner'));
    const res = await request(t.app)
      .put(path)
      .set(t.auth('owner'))
      .send({ ...read.body.data, title: 'Strict' });
    expect(res.status).toBe(422);
    expect(res.body.errors.id).toEqual(['The id field is not part of the contract.']);
    expect(res.body.errors.created_at).toEqual(['The created_at field is not part of the contract.']);
  });

  it('When the server runs strict, then a nested unknown field answers 422 with its path', async () => {
    const t = await testApp({ strict: true });
    const res = await request(t.app)
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({
        merchant_id: demo.merchant,
        supplier_id: DEMO_SUPPLIER_ID,
        sku: 'S-1',
        costs: [{ minimum_order_quantity: 1, cost: { value: 1, currency: 'USD' }, note: 'x' }],
      });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ 'costs.0.note': ['The costs.0.note field is not part of the contract.'] });
  });
});
