// Contract shapes of catalog items and images: internal fields (simulation, available_at, images array) never leak.

import { offerCount, type CatalogItemRecord, type MarketplaceRecord } from './catalog-records.js';
import { currentBuyBoxPrice } from './price-series.js';

/** The catalog item as the contract shows it, with its live offer count and buy-box price as of `now`. */
export function presentCatalogItem(item: CatalogItemRecord, marketplace: MarketplaceRecord, now: Date) {
  const main = item.images.find((i) => i.variant === 'main');
  const thumb = item.images.find((i) => i.variant === 'thumbnail');
  return {
    id: item.id,
    marketplace_id: item.marketplace_id,
    external_id: item.external_id,
    title: item.title,
    brand: item.brand,
    category: item.category,
    subcategory: item.subcategory,
    identifiers: item.identifiers.map((i) => ({ type: i.type, value: i.value })),
    main_image_url: main?.url ?? null,
    thumbnail_image_url: thumb?.url ?? null,
    review_count: item.review_count,
    review_rating: item.review_rating,
    is_brand_protected: item.is_brand_protected,
    requires_compliance_documentation: item.requires_compliance_documentation,
    fake_reviews_detected: item.fake_reviews_detected,
    size_tier: item.size_tier,
    offer_count: offerCount(item),
    buy_box_price: { value: currentBuyBoxPrice(item, marketplace.native_currency, now), currency: marketplace.native_currency },
    listed_at: item.listed_at,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

/** The item's images as the contract shows them, in display order. */
export function presentCatalogItemImages(item: CatalogItemRecord) {
  return [...item.images].sort((a, b) => a.position - b.position).map((image) => ({ marketplace_catalog_item_id: item.id, ...image }));
}

/** Whether the item is in the catalog as of `now` (imported items appear when their import completes). */
export function isAvailable(item: Pick<CatalogItemRecord, 'available_at'>, now: Date): boolean {
  return Date.parse(item.available_at) <= now.getTime();
}

/** The catalog list's filters (q, identifier, identifier_type, marketplace_id, category) as one predicate. */
export function matchesCatalogFilters(
  item: CatalogItemRecord,
  f: { marketplace_id?: string; q?: string; identifier?: string; identifier_type?: string; category?: string },
): boolean {
  if (f.marketplace_id !== undefined && item.marketplace_id !== f.marketplace_id) return false;
  if (f.category !== undefined && item.category !== f.category) return false;
  if (f.q !== undefined) {
    const needle = f.q.toLowerCase();
    const hay = [item.title, item.brand, item.external_id].map((s) => s.toLowerCase());
    if (!hay.some((s) => s.includes(needle))) return false;
  }
  if (f.identifier !== undefined || f.identifier_type !== undefined) {
    const hit = item.identifiers.some(
      (i) => (f.identifier === undefined || i.value === f.identifier) && (f.identifier_type === undefined || i.type === f.identifier_type),
    );
    if (!hit) return false;
  }
  return true;
}
