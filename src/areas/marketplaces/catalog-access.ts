import type { Ctx } from '../../http/context.js';
import { notFound, unprocessable } from '../../http/errors.js';
import type { CatalogItemRecord, MarketplaceRecord } from './catalog-records.js';
import { isAvailable } from './catalog-item-view.js';
import { processDueImports } from './import-processing.js';

/** A catalog item visible as of the clock, with its marketplace; 404 otherwise (catalog items belong to no merchant). */
export function visibleCatalogItem(ctx: Ctx, id: string): { item: CatalogItemRecord; marketplace: MarketplaceRecord } {
  const now = ctx.clock.now();
  processDueImports(ctx.store, now);
  const item = ctx.store.catalog_items.get(id);
  const marketplace = item && ctx.store.marketplaces.get(item.marketplace_id);
  if (!item || !marketplace || !isAvailable(item, now)) notFound('catalog item');
  return { item, marketplace };
}

/** Every catalog item visible as of the clock, in catalog order (imports that completed are processed first). */
export function visibleCatalogItems(ctx: Ctx): CatalogItemRecord[] {
  const now = ctx.clock.now();
  processDueImports(ctx.store, now);
  return ctx.store.catalog_items.all().filter((item) => isAvailable(item, now));
}

/** The marketplace of a catalog item (items never outlive their marketplace). */
export function marketplaceOf(ctx: Ctx, item: CatalogItemRecord): MarketplaceRecord {
  const marketplace = ctx.store.marketplaces.get(item.marketplace_id);
  if (!marketplace) throw new Error(`catalog item ${item.id} points at a missing marketplace`);
  return marketplace;
}

/** Points within the series filters (inclusive); an inverted range is the client's mistake, answered 422. */
export function withinSeriesRange<T extends { recorded_at: string }>(points: T[], query: { from_date?: string; to_date?: string }): T[] {
  const from = query.from_date === undefined ? -Infinity : Date.parse(query.from_date);
  const to = query.to_date === undefined ? Infinity : Date.parse(query.to_date);
  if (from > to) unprocessable({ from_date: ['The from date must be a date before or equal to to date.'] });
  return points.filter((point) => {
    const t = Date.parse(point.recorded_at);
    return t >= from && t <= to;
  });
}
