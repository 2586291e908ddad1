import type { AreaSeedContext } from '../collections.js';
import { generateProductsAndSourcing } from './seed-plan.js';

const DEMO_MERCHANT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/**
 * Products and sourcing seeded together (supplier items link to products): the demo merchant gets the rich plan
 * with the fixture ids the contract examples use, every other merchant a small one. Parents go in before children.
 */
export function seedProductsAndSourcing(s: AreaSeedContext): void {
  for (const merchant of s.store.merchants.all()) {
    const plan = generateProductsAndSourcing(s.faker, {
      merchantId: merchant.id,
      size: merchant.id === DEMO_MERCHANT_ID ? 'demo' : 'small',
      refDate: s.refDate,
    });
    for (const r of plan.products) s.store.products.insert(r);
    for (const r of plan.product_images) s.store.product_images.insert(r);
    for (const r of plan.product_identifiers) s.store.product_identifiers.insert(r);
    for (const r of plan.suppliers) s.store.suppliers.insert(r);
    for (const r of plan.supplier_items) s.store.supplier_items.insert(r);
    for (const r of plan.supplier_item_identifiers) s.store.supplier_item_identifiers.insert(r);
    for (const r of plan.scraping_requests) s.store.scraping_requests.insert(r);
  }
}
