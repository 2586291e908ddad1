import { defineCollection } from '../../store/collection.js';
import type { CatalogIdentifier, CatalogItemImportRecord, CatalogItemRecord, MarketplaceRecord } from './catalog-records.js';

export type { CatalogItemImportRecord, CatalogItemRecord, MarketplaceRecord } from './catalog-records.js';

/** The key a catalog item is filed under for each identifier it carries: imports look items up by it. */
export const identifierKey = (identifier: CatalogIdentifier): string => `${identifier.type}:${identifier.value}`;

/**
 * The Marketplaces area's collections. Marketplaces and catalog items are shared reference data (no merchant);
 * imports belong to the merchant that asked for them. Catalog items are filed under every identifier they carry.
 */
export const marketplaceCollections = {
  marketplaces: defineCollection<MarketplaceRecord>({ indexes: ['external_id'] }),
  catalog_items: defineCollection<CatalogItemRecord>({
    indexes: ['marketplace_id', 'external_id'],
    keys: { identifier: (item) => item.identifiers.map(identifierKey) },
  }),
  catalog_item_imports: defineCollection<CatalogItemImportRecord>({ indexes: ['merchant_id', 'processed'] }),
};
