import type { Handlers } from '../../contract/handler-map.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { ok } from '../../http/reply.js';
import { marketplaceOf, visibleCatalogItem, visibleCatalogItems, withinSeriesRange } from './catalog-access.js';
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

  getCatalogItem: ({ params }, ctx) => {
    const { item, marketplace } = visibleCatalogItem(ctx, params.marketplace_catalog_item);
    return ok({ data: presentCatalogItem(item, marketplace, ctx.clock.now()) });
  },

  listCatalogItemImages: ({ params, query }, ctx) => {
    const { item } = visibleCatalogItem(ctx, params.marketplace_catalog_item);
    return ok(paginate(presentCatalogItemImages(item), query, ctx.url));
  },

  listCatalogItemSalesRanks: ({ params, query }, ctx) => {
    const { item } = visibleCatalogItem(ctx, params.marketplace_catalog_item);
    const series = salesRankSeries(item, ctx.clock.now(), query.category_level);
    return ok(paginate(withinSeriesRange(series, query), query, ctx.url));
  },

  listCatalogItemCurrentOffers: ({ params, query }, ctx) => {
    const { item, marketplace } = visibleCatalogItem(ctx, params.marketplace_catalog_item);
    return ok(paginate(currentOffers(item, marketplace, ctx.clock.now()), query, ctx.url));
  },

  listCatalogItemPriceHistory: ({ params, query }, ctx) => {
    const { item, marketplace } = visibleCatalogItem(ctx, params.marketplace_catalog_item);
    const series = priceHistory(item, marketplace.native_currency, ctx.clock.now());
    return ok(paginate(withinSeriesRange(series, query), query, ctx.url));
  },
} satisfies Partial<Handlers>;
