import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEMO_CONNECTED_CHANNEL_ID } from '../../src/areas/channels/fixture-ids.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { DEMO_SCRAPING_REQUEST_ID, DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { listOperations, loadContract } from '../../src/contract/document/load-contract.js';
import { demo, testApp } from '../helpers/app.js';

type Parameter = { name: string; in: string; required?: boolean; $ref?: string };

/** The demo world's record for each path parameter, and a value for each required query parameter. */
async function demoValues(t: Awaited<ReturnType<typeof testApp>>): Promise<Record<string, string>> {
  const items = await request(t.app).get('/2024-09/marketplaces/catalog-items?per_page=1').set(t.auth('owner'));
  return {
    merchant: demo.merchant,
    merchant_id: demo.merchant,
    channel: DEMO_CONNECTED_CHANNEL_ID,
    endpoint: 'sellers%2Fv1%2FmarketplaceParticipations',
    product: DEMO_PRODUCT_ID,
    supplier: DEMO_SUPPLIER_ID,
    supplier_item: DEMO_SUPPLIER_ITEM_ID,
    supplier_scraping_request: DEMO_SCRAPING_REQUEST_ID,
    marketplace_catalog_item: items.body.data[0].id,
    // Locally the demo token acts on the default world, which the control plane's workspace operations name so.
    workspace: 'default',
  };
}

describe('a cache-buster on every read', () => {
  it('When every GET operation of the contract gets ?_=1 with the demo data, then each answers 200 and names the ignored parameter', async () => {
    const t = await testApp();
    const values = await demoValues(t);
    const { doc } = loadContract();
    const deref = (p: Parameter): Parameter =>
      p.$ref ? (doc.components as { parameters: Record<string, Parameter> }).parameters[p.$ref.split('/').pop()!]! : p;
    const gets = listOperations(doc).filter((op) => op.method === 'GET');
    expect(gets.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const op of gets) {
      const parameters = [...((doc.paths[op.path]!.parameters as Parameter[]) ?? []), ...((op.operation.parameters as Parameter[]) ?? [])].map(deref);
      const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? name);
      const query = new URLSearchParams({ _: '1' });
      for (const p of parameters) if (p.in === 'query' && p.required) query.set(p.name, values[p.name]!);
      const res = await request(t.app).get(`${path}?${query}`).set(t.auth('owner'));
      // The relay's query belongs to the retailer: nothing in it is the sandbox's to ignore.
      const relay = op.operationId === 'retrieveRetailerResource';
      answers.push(`${op.operationId} ${res.status} ${res.headers['sandbox-ignored-fields'] ?? '-'}`);
      expect.soft(res.status, `${op.operationId}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(200);
      if (!relay) expect.soft(res.headers['sandbox-ignored-fields'], op.operationId).toBe('query._');
    }
    expect(answers).toHaveLength(gets.length);
    expect(t.errors).toEqual([]);
  });
});
