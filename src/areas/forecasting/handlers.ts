import type { Handlers } from '../handler-map.js';
import { notFound, unprocessable } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, ok } from '../../http/reply.js';
import { marketplaceOf, visibleCatalogItem, visibleCatalogItems } from '../marketplaces/catalog-access.js';
import { isSupportedCurrency } from '../marketplaces/currencies.js';
import { catchUpSupplierOf } from '../sourcing/catch-up.js';
import { buildForecast } from './calculate.js';
import { presentOpportunityForecast } from './forecast-records.js';
import { matchesForecastFilters } from './opportunity-filters.js';
import { salesVolumeForecast } from './sales-volume-forecast.js';

/** The three Forecasting operations. */
export const forecastingHandlers = {
  listOpportunityForecasts: ({ query }, ctx) => {
    const forecasts = ctx.store.opportunity_forecasts
      .where('merchant_id', query.merchant_id)
      .filter((f) => matchesForecastFilters(f, query))
      .sort(byCreation);
    const page = paginate(forecasts, query, ctx.url);
    return ok({ ...page, data: page.data.map(presentOpportunityForecast) });
  },

  calculateOpportunityForecast: ({ body }, ctx) => {
    const { item, marketplace } = visibleCatalogItem(ctx, body.marketplace_catalog_item_id);
    const named = ctx.store.supplier_items.byKey('cost_id', body.supplier_item_cost_id)[0] ?? notFound('supplier item cost');
    ctx.access.member(named.merchant_id, 'supplier item cost');
    // The cost and stock as the item shows them: attempts that ended by now are applied first (they never remove a tier).
    catchUpSupplierOf(ctx.store, ctx.catalogues, named.supplier_id, named.merchant_id, ctx.clock.now());
    const supplierItem = ctx.store.supplier_items.get(named.id)!;
    const tier = supplierItem.costs.find((c) => c.id === body.supplier_item_cost_id) ?? notFound('supplier item cost');
    if (!isSupportedCurrency(tier.cost.currency)) {
      unprocessable({ supplier_item_cost_id: [`The cost tier's currency ${tier.cost.currency} is not in the sandbox's exchange table.`] });
    }
    const record = ctx.store.opportunity_forecasts.insert(buildForecast(ctx.newId(), { item, marketplace, supplierItem, tier }, ctx.clock.now()));
    return created({ data: presentOpportunityForecast(record) });
  },

  listSalesVolumeForecasts: ({ query }, ctx) => {
    const now = ctx.clock.now();
    const items = visibleCatalogItems(ctx)
      .filter((item) => query.marketplace_catalog_item_id === undefined || item.id === query.marketplace_catalog_item_id)
      .filter((item) => query.marketplace_id === undefined || item.marketplace_id === query.marketplace_id)
      .sort(byCreation);
    // Paginate first: a forecast reads 30 days of ranks, so only the page's items are computed.
    const page = paginate(items, query, ctx.url);
    const periodDays = query.period_days ?? 30;
    return ok({ ...page, data: page.data.map((item) => salesVolumeForecast(item, marketplaceOf(ctx, item), now, periodDays)) });
  },
} satisfies Partial<Handlers>;
