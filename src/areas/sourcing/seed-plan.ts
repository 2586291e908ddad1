// One merchant's products and sourcing records, sized for the demo merchant or smaller for the others. Pure:
// wave 2's seed.ts calls it per merchant with the seed context's faker and refDate, then inserts the records.
import type { Faker } from '@faker-js/faker';
import { DEMO_PRODUCT_ID } from '../products/fixture-ids.js';
import { generateProducts, type ProductSeed } from '../products/seed-generators.js';
import type { ScrapingRequestRecord, SupplierItemIdentifierRecord, SupplierItemRecord, SupplierRecord } from './record-types.js';
import { DEMO_SCRAPING_REQUEST_ID, DEMO_SUPPLIER_ID, DEMO_SUPPLIER_ITEM_COST_ID, DEMO_SUPPLIER_ITEM_ID, DEMO_SUPPLIER_ITEM_STOCK } from './fixture-ids.js';
import { generateScrapingRequests, generateSupplierItems, generateSuppliers } from './seed-generators.js';

/** Every products and sourcing collection one merchant's seed fills, keyed by collection name. */
export interface ProductsSourcingSeed extends ProductSeed {
  suppliers: SupplierRecord[];
  supplier_items: SupplierItemRecord[];
  supplier_item_identifiers: SupplierItemIdentifierRecord[];
  scraping_requests: ScrapingRequestRecord[];
}

/**
 * `demo`: 40 products, 3 suppliers with 30 items each and rich scraping history, with the fixture ids pinned.
 * `small`: 8 products, 1 supplier with 6 items and one finished scraping request.
 */
export function generateProductsAndSourcing(faker: Faker, args: { merchantId: string; size: 'demo' | 'small'; refDate: Date }): ProductsSourcingSeed {
  const demo = args.size === 'demo';
  const products = generateProducts(faker, args.merchantId, demo ? 40 : 8, args.refDate, demo ? [DEMO_PRODUCT_ID] : []);
  const suppliers = generateSuppliers(faker, args.merchantId, demo ? 3 : 1, args.refDate, demo ? [DEMO_SUPPLIER_ID] : []);
  const productIds = products.products.map((p) => p.id);
  const seed: ProductsSourcingSeed = {
    ...products,
    suppliers,
    supplier_items: [],
    supplier_item_identifiers: [],
    scraping_requests: [],
  };
  suppliers.forEach((supplier, i) => {
    const first = demo && i === 0;
    const items = generateSupplierItems(faker, {
      supplier,
      productIds,
      n: demo ? 30 : 6,
      refDate: args.refDate,
      pinned: first ? { itemId: DEMO_SUPPLIER_ITEM_ID, firstCostId: DEMO_SUPPLIER_ITEM_COST_ID, stockQuantity: DEMO_SUPPLIER_ITEM_STOCK } : undefined,
    });
    seed.supplier_items.push(...items.supplier_items);
    seed.supplier_item_identifiers.push(...items.supplier_item_identifiers);
    seed.scraping_requests.push(
      ...generateScrapingRequests(faker, {
        supplier,
        refDate: args.refDate,
        rich: demo,
        pinnedId: first ? DEMO_SCRAPING_REQUEST_ID : undefined,
      }),
    );
  });
  return seed;
}
