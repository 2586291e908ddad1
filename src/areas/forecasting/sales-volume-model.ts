// Sales volume from sales ranks: written once, used by the sales volume forecasts and by the opportunity model,
// so the units an opportunity forecast assumes are exactly what GET /forecasting/sales-volume-forecasts shows.

import type { CatalogItemRecord, MarketplaceRecord } from '../marketplaces/catalog-records.js';
import { CATEGORIES, type CategoryCode } from '../marketplaces/categories.js';
import { utcDay, seriesWindow } from '../marketplaces/calendar.js';
import { rootRanks } from '../marketplaces/sales-rank-series.js';

/** Name and version shown in sales volume forecasts' `forecast_model`. */
export const SALES_VOLUME_MODEL = 'sandbox-rank-power@1';

/** Units fall with rank as a power law: doubling the rank number cuts daily units by 2^0.8 = 1.74x. */
export const RANK_ELASTICITY = 0.8;

/** Days of root-category ranks a forecast looks back over. */
export const RANK_LOOKBACK_DAYS = 30;

/** Market size relative to the US marketplace, by country code: the same rank sells fewer units in a smaller market. */
export const MARKETPLACE_SCALE: Readonly<Record<string, number>> = {
  US: 1,
  CA: 0.12,
  MX: 0.06,
  GB: 0.3,
  DE: 0.35,
  FR: 0.2,
  IT: 0.15,
  ES: 0.13,
  NL: 0.05,
  SE: 0.03,
  PL: 0.04,
  JP: 0.3,
  IN: 0.12,
  SG: 0.02,
  AE: 0.03,
};

/** Scale of a marketplace not in the table (small, so unknown markets never look like the US). */
export const DEFAULT_MARKETPLACE_SCALE = 0.05;

/** Expected units sold per day at a rank in a category on a marketplace of the given scale. */
export function dailyUnitsAtRank(rank: number, category: CategoryCode, scale: number): number {
  return CATEGORIES[category].demandAtRankOne * scale * Math.max(1, rank) ** -RANK_ELASTICITY;
}

/** A unit forecast range: low <= expected <= high, whole units. */
export interface UnitRange {
  low: number;
  expected: number;
  high: number;
}

function quantile(sorted: number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Units over `periodDays` from observed daily ranks: expected = mean daily units x days; low/high = the 25th/75th
 * percentile day x days (widened to include the expectation), i.e. "a quiet month" and "a good month".
 */
export function unitsFromRanks(ranks: number[], category: CategoryCode, scale: number, periodDays: number): UnitRange {
  if (ranks.length === 0) return { low: 0, expected: 0, high: 0 };
  const daily = ranks.map((r) => dailyUnitsAtRank(r, category, scale)).sort((a, b) => a - b);
  const mean = daily.reduce((s, u) => s + u, 0) / daily.length;
  return {
    low: Math.round(Math.min(quantile(daily, 0.25), mean) * periodDays),
    expected: Math.round(mean * periodDays),
    high: Math.round(Math.max(quantile(daily, 0.75), mean) * periodDays),
  };
}

/** The ranks a forecast used, so a client can check it against the sales-ranks endpoint. */
export interface RankBasis {
  firstDay: number;
  lastDay: number;
  ranks: number[];
  average: number;
  best: number;
  worst: number;
}

/** The last RANK_LOOKBACK_DAYS root ranks up to the clock's current day (fewer for a newly listed item). */
export function rankBasis(item: CatalogItemRecord, now: Date): RankBasis {
  const window = seriesWindow(item.listed_at, now);
  const lastDay = utcDay(now);
  const firstDay = Math.max(window.firstDay, lastDay - RANK_LOOKBACK_DAYS + 1);
  // An item listed today or later still gets one observation, so every forecast has a basis.
  const from = Math.min(firstDay, lastDay);
  const ranks = rootRanks(item, from, lastDay);
  return {
    firstDay: from,
    lastDay,
    ranks,
    average: Math.round(ranks.reduce((s, r) => s + r, 0) / ranks.length),
    best: Math.min(...ranks),
    worst: Math.max(...ranks),
  };
}

/** The scale of a marketplace (by country code). */
export function marketplaceScale(marketplace: Pick<MarketplaceRecord, 'country_code'>): number {
  return MARKETPLACE_SCALE[marketplace.country_code] ?? DEFAULT_MARKETPLACE_SCALE;
}

/** Market-wide units of a catalog item over the next `periodDays`, and the ranks they come from. */
export function salesVolumeForItem(
  item: CatalogItemRecord,
  marketplace: MarketplaceRecord,
  now: Date,
  periodDays: number,
): { units: UnitRange; basis: RankBasis } {
  const basis = rankBasis(item, now);
  return { units: unitsFromRanks(basis.ranks, item.category, marketplaceScale(marketplace), periodDays), basis };
}
