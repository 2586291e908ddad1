import type { Ctx } from '../context.js';
import type { Collections } from '../collections.js';
import { notFound, unprocessable } from '../../http/errors.js';
import type { CatalogItemRecord, MarketplaceRecord } from './catalog-records.js';
import { isAvailable } from './catalog-item-view.js';
import { processDueImports } from './import-processing.js';

/**
 * The catalog item an id names, when it is visible as of `now` (imports completed by then are processed first, so
 * this writes: call it in a transaction); undefined otherwise. Catalog items belong to no merchant.
 */
export function findVisibleCatalogItem(store: Collections, now: Date, id: string): CatalogItemRecord | undefined {
  processDueImports(store, now);
  const item = store.catalog_items.get(id);
  return item && store.marketplaces.has(item.marketplace_id) && isAvailable(item, now) ? item : undefined;
}

/** A catalog item a body refers to, visible as of the clock, with its marketplace; 404 otherwise. */
export function visibleCatalogItem(ctx: Ctx, id: string): { item: CatalogItemRecord; marketplace: MarketplaceRecord } {
  const item = findVisibleCatalogItem(ctx.store, ctx.clock.now(), id) ?? notFound('catalog item');
  return { item, marketplace: marketplaceOf(ctx, item) };
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
  if (from > to) unprocessable({ from_date: ['The from date field must be a date before or equal to to date.'] });
  return points.filter((point) => {
    const t = Date.parse(point.recorded_at);
    return t >= from && t <= to;
  });
}
