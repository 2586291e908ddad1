import type { Collections } from '../collections.js';

/** A merchant's catalog item imports go with it; the catalog items they found stay (the catalog is shared). */
export function deleteMerchantMarketplaces(store: Collections, merchantId: string): void {
  for (const record of store.catalog_item_imports.where('merchant_id', merchantId)) store.catalog_item_imports.remove(record.id);
}
