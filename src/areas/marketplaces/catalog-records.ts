// Stored shapes of the Marketplaces area (plain JSON, snake_case). Presenters strip what the contract does not show.

import type { IdentifierType } from '../products/record-types.js';
import type { CategoryCode } from './categories.js';

export type { IdentifierType };

/** A catalog identifier: catalog items carry these instead of upc/ean/gtin/isbn fields. */
export interface CatalogIdentifier {
  type: IdentifierType;
  value: string;
}

export type MarketplaceRegion = 'north_america' | 'europe' | 'asia';

/** A marketplace: reference data from fixtures/marketplaces.json, stored as is (every field is presented). */
export interface MarketplaceRecord {
  id: string;
  external_id: string;
  name: string;
  country_code: string;
  domain: string;
  region: MarketplaceRegion;
  native_currency: string;
  created_at: string;
  updated_at: string;
}

export type SizeTier = 'small_standard' | 'large_standard' | 'oversize';

/** An image of a catalog item, stored inline on the item (images never change independently of it). */
export interface CatalogImageRecord {
  id: string;
  variant: 'main' | 'thumbnail' | 'alternate';
  url: string;
  width: number;
  height: number;
  position: number;
}

/**
 * The few numbers every time series of an item is derived from (never presented). Storing parameters instead of
 * points keeps the store small and lets series extend to whatever day the sandbox clock reaches.
 */
export interface CatalogItemSimulation {
  /** Root of every per-item random stream (prices, ranks, offers). */
  seed: number;
  /** Centre of the buy-box price, in the marketplace currency. */
  base_price: number;
  /** Half-width of weekly repricing moves as a fraction of base_price (0.01 calm .. 0.3 wild). */
  price_volatility: number;
  /** Centre of the root-category sales rank (log-normal noise around it). */
  base_sales_rank: number;
  /** Subcategory rank = root rank x this factor (subcategories are smaller, so ranks are better). */
  subcategory_rank_factor: number;
}

/** A marketplace catalog item as stored. `seller_count` fixes the number of current offers. */
export interface CatalogItemRecord {
  id: string;
  marketplace_id: string;
  external_id: string;
  title: string;
  brand: string;
  category: CategoryCode;
  subcategory: string;
  identifiers: CatalogIdentifier[];
  images: CatalogImageRecord[];
  review_count: number;
  review_rating: number | null;
  is_brand_protected: boolean;
  requires_compliance_documentation: boolean;
  fake_reviews_detected: boolean;
  size_tier: SizeTier;
  seller_count: number;
  listed_at: string;
  /** When the item enters the catalog: its created_at for seeded items, the import's completion for imported ones. */
  available_at: string;
  created_at: string;
  updated_at: string;
  simulation: CatalogItemSimulation;
}

/**
 * A catalog item import as stored. The status is derived from the clock against starts_at / completes_at; the
 * outcome is decided once, by the first request that finds the import completed (import-processing.ts), which
 * is when its new catalog items are created. Until then `processed` is false and the outcome arrays are empty.
 */
export interface CatalogItemImportRecord {
  id: string;
  merchant_id: string;
  marketplace_id: string;
  identifiers: CatalogIdentifier[];
  starts_at: string;
  completes_at: string;
  found_marketplace_catalog_item_ids: string[];
  not_found_identifiers: CatalogIdentifier[];
  /** Internal: whether the outcome has been written (and its new items created). Never presented. */
  processed: boolean;
  created_at: string;
  updated_at: string;
}
