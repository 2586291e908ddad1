import { filterCatalog, searchWords, type CatalogFilter } from '../catalog-filter.js';
import { invalidInput, notFoundError } from '../errors.js';
import type { OperationContext, OperationOutcome, RetailerOperation } from '../operation.js';
import { decodeOffsetToken, encodePageToken } from '../page-token.js';
import { int, list, one } from '../query.js';
import type { CatalogItem } from '../seller-account-types.js';
import { isResult, marketplaceIds } from './marketplace-param.js';

const INCLUDED_DATA = ['summaries', 'identifiers', 'images', 'salesRanks'] as const;
const IDENTIFIER_TYPES = ['ASIN', 'EAN', 'GTIN', 'ISBN', 'JAN', 'MINSAN', 'SKU', 'UPC'] as const;

/** The requested data sets (default summaries, as the real API), or the 400 for an unknown one. */
function includedData(ctx: OperationContext): string[] | OperationOutcome {
  const requested = list(ctx.query, 'includedData');
  const unknown = requested.filter((d) => !(INCLUDED_DATA as readonly string[]).includes(d));
  if (unknown.length > 0) return invalidInput(`Unsupported includedData: ${unknown.join(', ')}. Supported: ${INCLUDED_DATA.join(', ')}.`);
  return requested.length > 0 ? requested : ['summaries'];
}

/** A catalog item (catalog API 2022-04-01) with the requested data sets, per marketplace. */
function presentItem(item: CatalogItem, marketplaces: string[], data: string[]) {
  const per = <T>(make: (marketplaceId: string) => T) => marketplaces.map((marketplaceId) => ({ marketplaceId, ...make(marketplaceId) }));
  return {
    asin: item.asin,
    ...(data.includes('summaries')
      ? { summaries: per(() => ({ brand: item.brand, itemName: item.title, productType: item.product_type, websiteDisplayGroupName: item.classification })) }
      : {}),
    ...(data.includes('identifiers')
      ? { identifiers: per(() => ({ identifiers: item.identifiers.map((i) => ({ identifierType: i.type, identifier: i.value })) })) }
      : {}),
    ...(data.includes('images')
      ? {
          images: per(() => ({
            images: [
              { variant: 'MAIN', link: item.main_image_url, height: 1000, width: 1000 },
              { variant: 'MAIN', link: item.thumbnail_image_url, height: 75, width: 75 },
            ],
          })),
        }
      : {}),
    ...(data.includes('salesRanks')
      ? { salesRanks: per(() => ({ displayGroupRanks: [{ websiteDisplayGroup: item.classification, title: item.classification, rank: item.sales_rank }] })) }
      : {}),
  };
}

function readFilter(ctx: OperationContext): CatalogFilter | OperationOutcome {
  const keywords = one(ctx.query, 'keywords');
  const identifiers = list(ctx.query, 'identifiers');
  if (keywords !== undefined && identifiers.length > 0) return invalidInput('Only one of keywords and identifiers may be specified.');
  if (keywords === undefined && identifiers.length === 0) return invalidInput('Either keywords or identifiers must be specified.');
  if (identifiers.length > 20) return invalidInput('At most 20 identifiers may be specified.');
  if (keywords !== undefined) return { keywords: searchWords(keywords) };
  const type = one(ctx.query, 'identifiersType');
  if (!type || !(IDENTIFIER_TYPES as readonly string[]).includes(type)) {
    return invalidInput(`identifiersType is required with identifiers and must be one of ${IDENTIFIER_TYPES.join(', ')}.`);
  }
  if (type === 'SKU') {
    const asins = ctx.account.listings.filter((l) => identifiers.includes(l.sku)).flatMap((l) => (l.asin ? [l.asin] : []));
    return { identifiers: asins, identifierType: 'ASIN' };
  }
  if (type === 'JAN' || type === 'MINSAN') return { identifiers: [], identifierType: 'ASIN' };
  return { identifiers, identifierType: type as CatalogFilter['identifierType'] };
}

function searchCatalogItems(ctx: OperationContext): OperationOutcome {
  const marketplaces = marketplaceIds(ctx, 'marketplaceIds');
  if (isResult(marketplaces)) return marketplaces;
  const data = includedData(ctx);
  if (isResult(data)) return data;
  const size = int(ctx.query, 'pageSize', 1, 20);
  if (Number.isNaN(size)) return invalidInput('pageSize must be an integer from 1 to 20.');
  const pageSize = size ?? 10;
  const token = one(ctx.query, 'pageToken');
  const offset = token === undefined ? 0 : decodeOffsetToken(token, ctx.channelId);
  if (offset === undefined) return invalidInput('Invalid pageToken.');
  const filter = readFilter(ctx);
  if (isResult(filter)) return filter;
  if (filter.identifiers !== undefined && filter.identifiers.length === 0) {
    return { status: 200, body: { numberOfResults: 0, pagination: {}, refinements: { brands: [], classifications: [] }, items: [] } };
  }
  const matching = filterCatalog(ctx.account.catalog, filter);
  const page = matching.slice(offset, offset + pageSize);
  const brands = [...new Set(matching.map((i) => i.brand))].map((brandName) => ({
    brandName,
    numberOfResults: matching.filter((i) => i.brand === brandName).length,
  }));
  return {
    status: 200,
    body: {
      numberOfResults: matching.length,
      pagination: {
        ...(offset + pageSize < matching.length ? { nextToken: encodePageToken(ctx.channelId, { o: offset + pageSize }) } : {}),
        ...(offset > 0 ? { previousToken: encodePageToken(ctx.channelId, { o: Math.max(0, offset - pageSize) }) } : {}),
      },
      refinements: { brands, classifications: [] },
      items: page.map((item) => presentItem(item, marketplaces, data)),
    },
  };
}

function getCatalogItem(ctx: OperationContext): OperationOutcome {
  const marketplaces = marketplaceIds(ctx, 'marketplaceIds');
  if (isResult(marketplaces)) return marketplaces;
  const data = includedData(ctx);
  if (isResult(data)) return data;
  const item = ctx.account.catalog.find((i) => i.asin === ctx.params.asin);
  if (!item) return notFoundError(`Requested item '${ctx.params.asin}' not found in marketplace ${marketplaces[0]}.`);
  return { status: 200, body: presentItem(item, marketplaces, data) };
}

/** The catalog items API 2022-04-01 operations. */
export const catalogOperations: RetailerOperation[] = [
  { name: 'searchCatalogItems', method: 'GET', path: 'catalog/2022-04-01/items', limit: { rate: 2, burst: 2 }, run: searchCatalogItems },
  { name: 'getCatalogItem', method: 'GET', path: 'catalog/2022-04-01/items/{asin}', limit: { rate: 2, burst: 2 }, run: getCatalogItem },
];
