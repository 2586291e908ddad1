import { describe, expect, it } from 'vitest';
import { Faker, en } from '@faker-js/faker';
import { generateProductsAndSourcing } from '../../src/areas/sourcing/seed-plan.js';
import { scheduleAttempts, requestState } from '../../src/areas/sourcing/rules/scraping-schedule.js';
import { duplicateQuantityErrors } from '../../src/areas/sourcing/rules/cost-tiers.js';
import { DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_COST_ID, DEMO_SUPPLIER_ITEM_ID, DEMO_SCRAPING_REQUEST_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { contractValidator } from '../helpers/contract-schemas.js';

const refDate = new Date('2024-09-01T00:00:00.000Z');
const demoMerchant = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
function seeded(seed = 20240901) {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  faker.setDefaultRefDate(refDate);
  return faker;
}
const contract = contractValidator();
/** The contract's errors for a value of components.schemas[name]; [] when it validates. */
const schemaErrors = (name: string, value: unknown) => contract.checkSchema(name, value) ?? [];
const demo = () => generateProductsAndSourcing(seeded(), { merchantId: demoMerchant, size: 'demo', refDate });

describe('generateProductsAndSourcing', () => {
  it('When run twice with the same seed, then the records are identical', () => {
    expect(JSON.stringify(demo())).toBe(JSON.stringify(demo()));
  });

  it('When the demo merchant is seeded, then it gets 40 products, 3 suppliers of 30 items and scraping history, with the fixture ids', () => {
    const s = demo();
    expect(s.products).toHaveLength(40);
    expect(s.suppliers).toHaveLength(3);
    expect(s.supplier_items).toHaveLength(90);
    expect(s.scraping_requests).toHaveLength(9);
    expect(s.products[0]!.id).toBe(DEMO_PRODUCT_ID);
    expect(s.suppliers[0]!.id).toBe(DEMO_SUPPLIER_ID);
    expect(s.supplier_items[0]!.id).toBe(DEMO_SUPPLIER_ITEM_ID);
    expect(s.supplier_items[0]!.costs[0]!.id).toBe(DEMO_SUPPLIER_ITEM_COST_ID);
    expect(s.scraping_requests[0]!.id).toBe(DEMO_SCRAPING_REQUEST_ID);
    expect(s.product_images.length).toBeGreaterThan(30);
    expect(s.product_identifiers.length).toBeGreaterThanOrEqual(40);
  });

  it('When seeded, then every reference points at a record of the same merchant and every timestamp is before refDate', () => {
    const s = demo();
    const products = new Map(s.products.map((p) => [p.id, p]));
    const suppliers = new Map(s.suppliers.map((p) => [p.id, p]));
    const images = new Map(s.product_images.map((i) => [i.id, i]));
    const items = new Set(s.supplier_items.map((i) => i.id));
    for (const p of s.products) {
      for (const ref of [p.main_image_id, p.thumbnail_image_id]) if (ref) expect(images.get(ref)!.product_id).toBe(p.id);
    }
    for (const x of [...s.product_identifiers, ...s.product_images]) expect(products.has(x.product_id)).toBe(true);
    for (const item of s.supplier_items) {
      expect(suppliers.get(item.supplier_id)!.merchant_id).toBe(item.merchant_id);
      if (item.product_id) expect(products.get(item.product_id)!.merchant_id).toBe(item.merchant_id);
      expect(duplicateQuantityErrors(item.costs)).toEqual({});
    }
    for (const x of s.supplier_item_identifiers) expect(items.has(x.supplier_item_id)).toBe(true);
    for (const r of s.scraping_requests) expect(suppliers.has(r.supplier_id)).toBe(true);
    const stamps = Object.values(s)
      .flat()
      .flatMap((r) => [r.created_at, r.updated_at]);
    expect(stamps.every((t: string) => t < refDate.toISOString())).toBe(true);
    const skus = s.products.map((p) => p.sku);
    expect(new Set(skus).size).toBe(skus.length);
    const costIds = s.supplier_items.flatMap((i) => i.costs.map((c) => c.id));
    expect(new Set(costIds).size).toBe(costIds.length);
  });

  it('When seeded, then scraping history exists at refDate: ended attempts, one still running, and found items already applied', () => {
    const s = demo();
    const states = s.scraping_requests.map((r) => requestState(r, refDate).status);
    expect(states).toContain('running');
    expect(states).toContain('completed');
    for (const r of s.scraping_requests) {
      expect(r.applied_attempts).toBe(scheduleAttempts(r, refDate).filter((a) => a.finished_at).length);
    }
  });

  it('When seed records are presented, then they validate against the contract schemas', () => {
    const s = demo();
    for (const supplier of s.suppliers) expect(schemaErrors('Supplier', supplier)).toEqual([]);
    for (const item of s.supplier_items) {
      const identifiers = s.supplier_item_identifiers.filter((x) => x.supplier_item_id === item.id);
      expect(schemaErrors('SupplierItem', { ...item, identifiers })).toEqual([]);
    }
    for (const image of s.product_images) {
      const { storage_key: _internal, ...presented } = image;
      expect(schemaErrors('ProductImage', presented)).toEqual([]);
    }
    for (const r of s.scraping_requests) {
      const { applied_attempts: _internal, ...stored } = r;
      expect(schemaErrors('ScrapingRequest', { ...stored, ...requestState(r, refDate) })).toEqual([]);
      for (const a of scheduleAttempts(r, new Date('2026-01-01T00:00:00Z'))) expect(schemaErrors('ScrapingAttempt', a)).toEqual([]);
    }
    const images = new Map(s.product_images.map((i) => [i.id, i.url]));
    for (const p of s.products) {
      const presented = {
        ...p,
        identifiers: s.product_identifiers.filter((x) => x.product_id === p.id),
        main_image_url: p.main_image_id ? images.get(p.main_image_id) : null,
        thumbnail_image_url: p.thumbnail_image_id ? images.get(p.thumbnail_image_id) : null,
      };
      expect(schemaErrors('Product', presented)).toEqual([]);
    }
  });

  it('When a small merchant is seeded, then it gets a smaller world', () => {
    const s = generateProductsAndSourcing(seeded(7), { merchantId: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', size: 'small', refDate });
    expect([s.products.length, s.suppliers.length, s.supplier_items.length, s.scraping_requests.length]).toEqual([8, 1, 6, 1]);
    expect(s.products[0]!.id).not.toBe(DEMO_PRODUCT_ID);
  });
});
