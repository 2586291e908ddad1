// Scraping adds the tiers a known item lacks, but never past the 20 tiers a client's create and PUT allow: past
// them, the item's GET body was no longer a valid PUT body and the world no longer exported (a 500).
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { MAX_COST_TIERS } from '../../src/areas/sourcing/rules/cost-tiers.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { firstSucceeds, scrapedSupplier, skusFoundBy } from './support/scraping.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  expect(t.errors).toEqual([]);
});

describe('A scraped item keeps within the tier bound', () => {
  it('When the bound is read, then it is the contract maxItems of costs on create and on PUT', () => {
    const { schemas } = loadContract().doc.components as { schemas: Record<string, { properties: { costs: { maxItems: number } } }> };
    expect(schemas.SupplierItemCreate!.properties.costs.maxItems).toBe(MAX_COST_TIERS);
    expect(schemas.SupplierItemUpdate!.properties.costs.maxItems).toBe(MAX_COST_TIERS);
  });

  it('When an attempt finds an item that already has 20 tiers, then it keeps 20: its GET body is a valid PUT body and the world exports', async () => {
    const { supplierId, scraping } = await scrapedSupplier(t, 1, firstSucceeds);
    const [sku] = skusFoundBy(supplierId, scraping, 1);
    // Twenty tiers of quantities no catalogue uses, so every tier the attempt finds is one the item lacks.
    const costs = Array.from({ length: MAX_COST_TIERS }, (_, i) => ({ minimum_order_quantity: 1000 + i, cost: { value: 9, currency: 'USD' } }));
    const created = await request(t.app)
      .post('/2024-09/supplier-items')
      .set(t.auth('owner'))
      .send({ merchant_id: demo.merchant, supplier_id: supplierId, sku, costs });
    expect(created.status).toBe(201);

    t.clock.advance(30 * 60_000);
    const item = (await request(t.app).get(`/2024-09/supplier-items/${created.body.data.id}`).set(t.auth('owner'))).body.data;
    expect(item.costs.map((c: { minimum_order_quantity: number }) => c.minimum_order_quantity)).toEqual(costs.map((c) => c.minimum_order_quantity));

    expect((await request(t.app).put(`/2024-09/supplier-items/${item.id}`).set(t.auth('owner')).send(item)).status).toBe(204);
    expect((await request(t.app).get('/_sandbox/workspaces/default/export')).status).toBe(200);
  });
});
