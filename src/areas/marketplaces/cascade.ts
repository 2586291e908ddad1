import type { Collections } from '../collections.js';
import type { BesideStore } from '../context.js';
import { processDueImports } from './import-processing.js';

/**
 * A merchant's catalog item imports go with it; the catalog items they found stay (the catalog is shared). Imports
 * that completed before the deletion are processed first: their items were in the catalog from completion on, and
 * a read is what would have processed them, so without this a deletion with no read since erased what they found.
 */
export function deleteMerchantMarketplaces(store: Collections, merchantId: string, beside: BesideStore): void {
  processDueImports(store, beside.clock.now());
  for (const record of store.catalog_item_imports.where('merchant_id', merchantId)) store.catalog_item_imports.remove(record.id);
}
