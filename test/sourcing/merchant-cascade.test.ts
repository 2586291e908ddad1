import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});

/** Every products and sourcing record that belongs to the merchant, directly or through a parent. */
function recordsOf(merchantId: string) {
  const s = t.store;
  const productIds = new Set(s.products.where('merchant_id', merchantId).map((p) => p.id));
  const itemIds = new Set(s.supplier_items.where('merchant_id', merchantId).map((i) => i.id));
  return {
    products: productIds.size,
    product_identifiers: s.product_identifiers.all().filter((x) => productIds.has(x.product_id)).length,
    product_images: s.product_images.all().filter((x) => productIds.has(x.product_id)).length,
    suppliers: s.suppliers.where('merchant_id', merchantId).length,
    supplier_items: itemIds.size,
    supplier_item_identifiers: s.supplier_item_identifiers.all().filter((x) => itemIds.has(x.supplier_item_id)).length,
    scraping_requests: s.scraping_requests.where('merchant_id', merchantId).length,
  };
}

describe('merchant deletion', () => {
  it('When the demo merchant is deleted, then none of its products and sourcing records remain and other merchants keep theirs', async () => {
    const before = recordsOf(demo.merchant);
    expect(Object.values(before).every((n) => n > 0)).toBe(true);
    const rivalBefore = recordsOf(demo.rivalMerchant);

    const res = await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'));
    expect(res.status).toBe(204);

    expect(Object.values(recordsOf(demo.merchant)).every((n) => n === 0)).toBe(true);
    expect(recordsOf(demo.rivalMerchant)).toEqual(rivalBefore);
    // Nothing anywhere points at a record that no longer exists.
    const s = t.store;
    expect(s.product_identifiers.all().every((x) => s.products.has(x.product_id))).toBe(true);
    expect(s.product_images.all().every((x) => s.products.has(x.product_id))).toBe(true);
    expect(s.supplier_items.all().every((i) => s.suppliers.has(i.supplier_id) && (i.product_id === null || s.products.has(i.product_id)))).toBe(true);
    expect(s.supplier_item_identifiers.all().every((x) => s.supplier_items.has(x.supplier_item_id))).toBe(true);
    expect(s.scraping_requests.all().every((r) => s.suppliers.has(r.supplier_id) && s.merchants.has(r.merchant_id))).toBe(true);
  });
});
