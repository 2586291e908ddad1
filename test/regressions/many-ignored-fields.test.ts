// A body with thousands of fields the contract does not name, each ignored: 20,000 of them are 250 KB, under the
// body limit. Dropping them one at a time copied the body once per field (the square of the count: 8,000 fields
// held the event loop for 30 s); the body is copied once, so such a request costs about what its bytes cost.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { supplierItemRequest } from '../helpers/builders.js';

const MANY = 20_000;
const stray = (prefix: string) => Object.fromEntries(Array.from({ length: MANY }, (_, i) => [`${prefix}${i}`, i]));

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('a body with thousands of ignored fields', () => {
  it(`When a merchant is created with ${MANY} fields the contract does not name, then 201 with only its name, and they are reported`, async () => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .send({ name: 'Many Fields Co', ...stray('f') });
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('Many Fields Co');
    expect(res.headers['sandbox-ignored-fields']).toMatch(/^body\.f0, body\.f1, .*\(19980 more\)$/);
  });

  it(`When ${MANY} ignored fields sit inside a cost tier, then 201 and the tier keeps its own fields`, async () => {
    const res = await supplierItemRequest(t, { costs: [{ minimum_order_quantity: 1, cost: { value: 2, currency: 'USD' }, ...stray('n') }] });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    expect(res.body.data.costs[0]).toMatchObject({ minimum_order_quantity: 1, cost: { value: 2, currency: 'USD' } });
    expect(res.body.data.costs[0]).not.toHaveProperty('n0');
  });
});
