import { defineCollection } from '../../store/collection.js';
import type { ScrapingRequestRecord, SupplierItemIdentifierRecord, SupplierItemRecord, SupplierRecord } from './record-types.js';

export type {
  CostTierRecord,
  ScrapingRequestRecord,
  SupplierItemIdentifierRecord,
  SupplierItemRecord,
  SupplierRecord,
} from './record-types.js';

/**
 * The sourcing area's collections. Cost tiers are embedded in their item; the computed key `cost_id` files an item
 * under each of its tier ids, so `supplier_items.byKey('cost_id', id)` finds the item of a supplier_item_cost_id.
 */
export const sourcingCollections = {
  suppliers: defineCollection<SupplierRecord>({ indexes: ['merchant_id'] }),
  supplier_items: defineCollection<SupplierItemRecord>({
    indexes: ['merchant_id', 'supplier_id', 'product_id'],
    keys: { cost_id: (item) => item.costs.map((tier) => tier.id) },
  }),
  supplier_item_identifiers: defineCollection<SupplierItemIdentifierRecord>({ indexes: ['supplier_item_id'] }),
  scraping_requests: defineCollection<ScrapingRequestRecord>({ indexes: ['supplier_id', 'merchant_id'] }),
};
