import type { Handlers } from '../handler-map.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { ok } from '../../http/reply.js';
import { marketplaceOf, visibleCatalogItems, withinSeriesRange } from './catalog-access.js';
import { matchesCatalogFilters, presentCatalogItem, presentCatalogItemImages } from './catalog-item-view.js';
import { currentOffers } from './current-offers.js';
import { priceHistory } from './price-series.js';
import { salesRankSeries } from './sales-rank-series.js';

/** Marketplaces and the catalog: shared reference data any authenticated user reads (no 403). */
export const catalogHandlers = {
  listMarketplaces: ({ query }, ctx) => {
    const marketplaces = ctx.store.marketplaces
      .all()
      .filter((m) => query.region === undefined || m.region === query.region)
      .sort(byCreation);
    return ok(paginate(marketplaces, query, ctx.url));
  },

  listCatalogItems: ({ query }, ctx) => {
    const now = ctx.clock.now();
    const items = visibleCatalogItems(ctx)
      .filter((item) => matchesCatalogFilters(item, query))
      .sort(byCreation);
    const page = paginate(items, query, ctx.url);
    return ok({ ...page, data: page.data.map((item) => presentCatalogItem(item, marketplaceOf(ctx, item), now)) });
  },

  getCatalogItem: ({ bound: { marketplace_catalog_item: item } }, ctx) => ok({ data: presentCatalogItem(item, marketplaceOf(ctx, item), ctx.clock.now()) }),

  listCatalogItemImages: ({ bound: { marketplace_catalog_item: item }, query }, ctx) => ok(paginate(presentCatalogItemImages(item), query, ctx.url)),

  listCatalogItemSalesRanks: ({ bound: { marketplace_catalog_item: item }, query }, ctx) => {
    const series = salesRankSeries(item, ctx.clock.now(), query.category_level);
    return ok(paginate(withinSeriesRange(series, query), query, ctx.url));
  },

  listCatalogItemCurrentOffers: ({ bound: { marketplace_catalog_item: item }, query }, ctx) =>
    ok(paginate(currentOffers(item, marketplaceOf(ctx, item), ctx.clock.now()), query, ctx.url)),

  listCatalogItemPriceHistory: ({ bound: { marketplace_catalog_item: item }, query }, ctx) => {
    const series = priceHistory(item, marketplaceOf(ctx, item).native_currency, ctx.clock.now());
    return ok(paginate(withinSeriesRange(series, query), query, ctx.url));
  },
} satisfies Partial<Handlers>;
