// A small CI session run in a workspace, and the workspace's bundle: what the load tests start from.
import request from 'supertest';
import { expect } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { demo, type TestApp } from '../helpers/app.js';

export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

export type Ws = { id: string; tokens: Record<'owner' | 'member' | 'outsider' | 'rival', string> };
export type Bundle = Record<string, unknown> & {
  changes: Record<string, { added: Record<string, unknown>[]; changed: Record<string, unknown>[]; deleted: string[] }>;
};

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** A workspace, plain or loaded from a bundle (the answer must be 201). */
export async function newWorkspace(t: TestApp, body?: object): Promise<Ws> {
  const res = body ? await request(t.app).post('/_sandbox/workspaces').send(body) : await request(t.app).post('/_sandbox/workspaces');
  expect(res.status, res.text.slice(0, 500)).toBe(201);
  return res.body.data as Ws;
}

/** The workspace's bundle, as its own token exports it. */
export async function exported(t: TestApp, ws: Ws): Promise<Bundle> {
  const res = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner));
  expect(res.status, res.text.slice(0, 500)).toBe(200);
  return res.body as Bundle;
}

/** A scripted CI session: creates, updates and deletes across areas, a seeded record deleted, a clock advance, an upload. */
export async function scriptedSession(t: TestApp, ws: Ws): Promise<{ product: string; supplierItem: string; merchant: string }> {
  const api = (method: 'get' | 'post' | 'put' | 'delete', path: string) => request(t.app)[method](path).set(bearer(ws.tokens.owner));
  const merchant = (await api('post', '/2024-09/merchants').send({ name: 'Acme Trading' }).expect(201)).body.data.id as string;
  await api('put', `/2024-09/merchants/${merchant}`).send({ name: 'Acme Trading Ltd' }).expect(204);
  const product = (await api('post', '/2024-09/products').send({ merchant_id: demo.merchant, sku: 'RUN-1', title: 'Run one' }).expect(201)).body.data
    .id as string;
  const gone = (await api('post', '/2024-09/products').send({ merchant_id: demo.merchant, sku: 'RUN-2', title: 'Run two' }).expect(201)).body.data.id as string;
  await api('put', `/2024-09/products/${product}`).send({ title: 'Run one, renamed' }).expect(204);
  await api('delete', `/2024-09/products/${gone}`).expect(204);
  await api('delete', `/2024-09/products/${DEMO_PRODUCT_ID}`).expect(204);
  await api('post', `/2024-09/products/${product}/identifiers`).send({ type: 'EAN', value: '4006381333931' }).expect(201);
  const supplierItem = (
    await api('post', '/2024-09/supplier-items')
      .send({
        merchant_id: demo.merchant,
        supplier_id: DEMO_SUPPLIER_ID,
        sku: 'ITEM-RUN',
        costs: [{ minimum_order_quantity: 1, cost: { value: 10, currency: 'USD' } }],
      })
      .expect(201)
  ).body.data.id as string;
  await api('post', `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`).send({ source_url: 'https://supplier.example/catalogue' }).expect(201);
  await api('post', '/2024-09/channels').send({ merchant_id: demo.merchant, name: 'Run channel', type: 'retailer' }).expect(200);
  await api('post', '/_sandbox/clock/advance').send({ hours: 30 }).expect(200);
  await api('post', `/2024-09/products/${product}/images`).attach('file', PNG, { filename: 'run.png', contentType: 'image/png' }).expect(201);
  return { product, supplierItem, merchant };
}
