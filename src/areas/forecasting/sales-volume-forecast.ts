// The sales volume forecast record, derived at read time (nothing stored): it is a view of the catalog's ranks.

import type { components } from '../../contract/document/generated.js';
import type { CatalogItemRecord, MarketplaceRecord } from '../marketplaces/catalog-records.js';
import { CATEGORIES } from '../marketplaces/categories.js';
import { DAY_MS, dayStartIso, utcDay } from '../marketplaces/calendar.js';
import { SALES_VOLUME_MODEL, salesVolumeForItem } from './sales-volume-model.js';

/** A period length the list accepts (the contract's `period_days` enum). */
export type PeriodDays = components['schemas']['SalesVolumeForecast']['period_days'];

/** Every PeriodDays value. */
export const PERIOD_DAYS: readonly PeriodDays[] = [7, 30, 90];

/** The sales volume forecast of one item as the contract shows it, for the period starting today (UTC). */
export function salesVolumeForecast(item: CatalogItemRecord, marketplace: MarketplaceRecord, now: Date, periodDays: PeriodDays) {
  const { units, basis } = salesVolumeForItem(item, marketplace, now, periodDays);
  const start = utcDay(now) * DAY_MS;
  return {
    marketplace_catalog_item_id: item.id,
    marketplace_id: item.marketplace_id,
    period_start: new Date(start).toISOString(),
    period_end: new Date(start + periodDays * DAY_MS).toISOString(),
    period_days: periodDays,
    expected_units_low: units.low,
    expected_units: units.expected,
    expected_units_high: units.high,
    sales_rank_category: CATEGORIES[item.category].name,
    sales_rank_observations: basis.ranks.length,
    sales_rank_average: basis.average,
    sales_rank_best: basis.best,
    sales_rank_worst: basis.worst,
    sales_ranks_from: dayStartIso(basis.firstDay),
    sales_ranks_to: dayStartIso(basis.lastDay),
    forecast_model: SALES_VOLUME_MODEL,
    calculated_at: now.toISOString(),
  };
}
