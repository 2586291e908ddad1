// Stored shapes of the Marketplaces area (plain JSON, snake_case), taken from the contract's schemas. Presenters
// strip what the contract does not show and derive what it shows but the store does not keep.

import type { components } from '../../contract/document/generated.js';
import type { IdentifierType } from '../products/record-types.js';

type Schemas = components['schemas'];

export type { IdentifierType };

/** A catalog identifier: catalog items carry these instead of upc/ean/gtin/isbn fields. */
export type CatalogIdentifier = Schemas['CatalogItemIdentifier'];

/** A marketplace: reference data from fixtures/marketplaces.json, stored as is (every field is presented). */
export type MarketplaceRecord = Schemas['Marketplace'];

export type SizeTier = Schemas['CatalogItem']['size_tier'];

/** An image of a catalog item, stored inline on the item (images never change independently of it). */
export type CatalogImageRecord = Omit<Schemas['CatalogItemImage'], 'marketplace_catalog_item_id'>;

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

/**
 * The most current offers a catalog item has: what the seeders and imports give, what a bundle may hold, and what a
 * read presents whatever a stored record says, so no read of an item's offers costs more than this many.
 */
export const MAX_SELLER_COUNT = 40;

/** How many current offers an item has, as every read presents it. */
export const offerCount = (item: Pick<CatalogItemRecord, 'seller_count'>): number => Math.max(0, Math.min(item.seller_count, MAX_SELLER_COUNT));

/**
 * A marketplace catalog item as stored. `seller_count` fixes the number of current offers (the presented
 * offer_count); the image URLs come from `images`, and the buy-box price from the simulation and the clock.
 */
export type CatalogItemRecord = Omit<Schemas['CatalogItem'], 'main_image_url' | 'thumbnail_image_url' | 'offer_count' | 'buy_box_price'> & {
  images: CatalogImageRecord[];
  seller_count: number;
  /** When the item enters the catalog: its created_at for seeded items, the import's completion for imported ones. */
  available_at: string;
  simulation: CatalogItemSimulation;
};

/**
 * A catalog item import as stored. The status is derived from the clock against starts_at / completes_at; the
 * outcome is decided once, by the first request that finds the import completed (import-processing.ts), which
 * is when its new catalog items are created. Until then `processed` is false and the outcome arrays are empty.
 */
export type CatalogItemImportRecord = Omit<
  Schemas['CatalogItemImport'],
  'status' | 'requested_count' | 'found_count' | 'not_found_count' | 'started_at' | 'completed_at'
> & {
  starts_at: string;
  completes_at: string;
  /** Internal: whether the outcome has been written (and its new items created). Never presented. */
  processed: boolean;
};
