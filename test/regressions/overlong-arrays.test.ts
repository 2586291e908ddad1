// A body array far past its schema's maxItems, each item breaking the contract: 30,000 `{}` costs are 90 KB, well
// under the body limit. Checked item by item, the validator gathers every item's errors (its concatenation grows
// with the square of the count: seconds of one request holding the event loop, minutes at the body limit); the
// bound says all there is to say.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ITEM_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { supplierItemRequest } from '../helpers/builders.js';

const MANY = 30_000;
const COSTS_BOUND = { message: 'The costs field must not have more than 20 items.', errors: { costs: ['The costs field must not have more than 20 items.'] } };

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('a body array past its maxItems', () => {
  it(`When a supplier item is created with ${MANY} invalid cost tiers, then 422 names the bound alone`, async () => {
    const res = await supplierItemRequest(t, { costs: Array(MANY).fill({}) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(COSTS_BOUND);
  });

  it(`When a supplier item is updated with ${MANY} cost tiers, then 422 names the bound alone`, async () => {
    const res = await request(t.app)
      .put(`/2024-09/supplier-items/${DEMO_SUPPLIER_ITEM_ID}`)
      .set(t.auth('owner'))
      .send({ costs: Array(MANY).fill({ minimum_order_quantity: 'x' }) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(COSTS_BOUND);
  });

  it(`When a catalog item import names ${MANY} identifiers, then 422 names the bound alone`, async () => {
    const res = await request(t.app)
      .post('/2024-09/marketplaces/catalog-item-imports')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, identifiers: Array(MANY).fill({}) });
    expect(res.status).toBe(422);
    expect(res.body.errors.identifiers).toEqual(['The identifiers field must not have more than 100 items.']);
    expect(Object.keys(res.body.errors).filter((field) => field.startsWith('identifiers.'))).toEqual([]);
  });

  it('When the array is within its bound and its items break the contract, then 422 still names each item’s fields', async () => {
    const res = await supplierItemRequest(t, { costs: [{}, { minimum_order_quantity: 'x', cost: { value: 1, currency: 'USD' } }] });
    expect(res.status).toBe(422);
    expect(res.body.errors).toMatchObject({
      'costs.0.minimum_order_quantity': ['The costs.0.minimum_order_quantity field is required.'],
      'costs.1.minimum_order_quantity': ['The costs.1.minimum_order_quantity field must be integer.'],
    });
  });
});
