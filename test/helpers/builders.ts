// Builders: each creates one record through the API, as a client would (so the data a test starts from passed the
// contract), and returns the created record. Defaults make a valid record of the demo merchant; overrides set
// what the test is about.
import request from 'supertest';
import type { components } from '../../src/contract/document/generated.js';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, type DemoUser, type TestApp } from './app.js';

type Schemas = components['schemas'];

let made = 0;
/** A value no other builder call of this process has used: SKUs and names unique within a merchant. */
const unique = (prefix: string) => `${prefix}-${++made}`;

/** Who creates a record of a merchant: the rival for the rival merchant, the owner for any other. */
const creatorOf = (merchantId: string): DemoUser => (merchantId === demo.rivalMerchant ? 'rival' : 'owner');

async function create<T>(t: TestApp, path: string, body: object, as: DemoUser, status = 201): Promise<T> {
  const res = await request(t.app).post(path).set(t.auth(as)).send(body);
  if (res.status !== status) throw new Error(`POST ${path} answered ${res.status}, not ${status}: ${res.text}`);
  return res.body.data as T;
}

/** A merchant the owner creates (and owns). */
export const aMerchant = (t: TestApp, overrides: Partial<Schemas['MerchantCreate']> = {}, as: DemoUser = 'owner') =>
  create<Schemas['Merchant']>(t, '/2024-09/merchants', { name: unique('Merchant'), ...overrides }, as);

/** A product of the demo merchant (of `merchant_id` when given), without identifiers or images. */
export function aProduct(t: TestApp, overrides: Partial<Schemas['ProductCreate']> = {}, as?: DemoUser) {
  const body = { merchant_id: demo.merchant, sku: unique('SKU'), title: unique('Product'), ...overrides };
  return create<Schemas['Product']>(t, '/2024-09/products', body, as ?? creatorOf(body.merchant_id));
}

/** A supplier of the demo merchant (of `merchant_id` when given), in euros. */
export function aSupplier(t: TestApp, overrides: Partial<Schemas['SupplierCreate']> = {}, as?: DemoUser) {
  const body = { merchant_id: demo.merchant, name: unique('Supplier'), default_currency: 'EUR', ...overrides };
  return create<Schemas['Supplier']>(t, '/2024-09/suppliers', body, as ?? creatorOf(body.merchant_id));
}

/** A supplier item of the demo merchant's demo supplier, with one cost tier and a unique SKU. */
export function aSupplierItem(t: TestApp, overrides: Partial<Schemas['SupplierItemCreate']> = {}, as?: DemoUser) {
  const body = {
    merchant_id: demo.merchant,
    supplier_id: DEMO_SUPPLIER_ID,
    sku: unique('ITEM'),
    costs: [{ minimum_order_quantity: 1, cost: { value: 10, currency: 'USD' } }],
    ...overrides,
  };
  return create<Schemas['SupplierItem']>(t, '/2024-09/supplier-items', body, as ?? creatorOf(body.merchant_id));
}

/**
 * The request creating a supplier item of the demo supplier (a unique SKU unless `fields` names one) with `fields`
 * over it, answered as it is: for tests of what the create refuses or reports.
 */
export function supplierItemRequest(t: TestApp, fields: Record<string, unknown>, as: DemoUser = 'owner') {
  const body = { merchant_id: demo.merchant, supplier_id: DEMO_SUPPLIER_ID, sku: unique('ITEM'), ...fields };
  return request(t.app).post('/2024-09/supplier-items').set(t.auth(as)).send(body);
}

/** An unconnected retailer channel of the demo merchant (createChannel answers 200, as the specification says). */
export function aChannel(t: TestApp, overrides: Partial<Schemas['ChannelCreate']> = {}, as?: DemoUser) {
  const body = { merchant_id: demo.merchant, name: unique('Channel'), type: 'retailer' as const, ...overrides };
  return create<Schemas['Channel']>(t, '/2024-09/channels', body, as ?? creatorOf(body.merchant_id), 200);
}
