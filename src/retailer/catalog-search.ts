import type { components, operations } from '../contract/document/generated.js';
import { filterCatalog, searchWords } from './catalog-filter.js';
import { DEFAULT_MARKETPLACE_ID } from './marketplaces.js';
import type { CatalogItem } from './seller-account-types.js';

/** searchChannelCatalog's query, as the contract names it. */
export type ChannelCatalogQuery = Pick<NonNullable<operations['searchChannelCatalog']['parameters']['query']>, 'keywords' | 'identifier' | 'identifier_type'>;

/** The contract's ChannelCatalogItem: identifiers as an array, never separate upc/ean/gtin/isbn fields. */
export type ChannelCatalogItem = components['schemas']['ChannelCatalogItem'];

/** Maps one retailer catalog item to the contract's shape. */
export function presentChannelCatalogItem(item: CatalogItem, marketplaceId: string): ChannelCatalogItem {
  return {
    asin: item.asin,
    marketplace_id: marketplaceId,
    title: item.title,
    brand: item.brand,
    identifiers: item.identifiers.map((i) => ({ type: i.type, value: i.value })),
    main_image_url: item.main_image_url,
    thumbnail_image_url: item.thumbnail_image_url,
  };
}

/** Every match in stable catalog order; the handler paginates with the core's paginate(). */
export function searchChannelCatalogItems(catalog: readonly CatalogItem[], marketplaceId: string | null, query: ChannelCatalogQuery): ChannelCatalogItem[] {
  const matches = filterCatalog(catalog, {
    ...(query.keywords ? { keywords: searchWords(query.keywords) } : {}),
    ...(query.identifier ? { identifiers: [query.identifier.trim()] } : {}),
    ...(query.identifier_type ? { identifierType: query.identifier_type } : {}),
  });
  return matches.map((item) => presentChannelCatalogItem(item, marketplaceId ?? DEFAULT_MARKETPLACE_ID));
}
