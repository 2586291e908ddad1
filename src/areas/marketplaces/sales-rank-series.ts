// Daily sales ranks, derived like the price series (seed + day). The root-category series feeds the sales volume
// model, so what a client reads here is exactly what the volume and opportunity forecasts were computed from.

import type { components } from '../../contract/document/generated.js';
import type { CatalogItemRecord } from './catalog-records.js';
import { CATEGORIES } from './categories.js';
import { dayStartIso, seriesWindow } from './calendar.js';
import { unitAt } from './deterministic-random.js';

/** Log-scale spread of daily rank noise: exp(+/-0.35) keeps a rank within about -30%..+42% of its centre. */
export const RANK_SPREAD = 0.35;

/** A sales rank observation as the contract shows it. */
export type SalesRankView = components['schemas']['SalesRank'];

export type CategoryLevel = SalesRankView['category_level'];

/** Root-category rank on a UTC day; averaging three daily draws makes ranks drift rather than jump. */
export function rootRankOnDay(item: CatalogItemRecord, day: number): number {
  const { seed, base_sales_rank } = item.simulation;
  const mean = (unitAt(seed, 'rank', day) + unitAt(seed, 'rank', day - 1) + unitAt(seed, 'rank', day - 2)) / 3;
  return Math.max(1, Math.round(base_sales_rank * Math.exp(RANK_SPREAD * (mean * 2 - 1))));
}

/** Subcategory rank: the same demand in a smaller category, so a proportionally better rank. */
export function subcategoryRankOnDay(item: CatalogItemRecord, day: number): number {
  return Math.max(1, Math.round(rootRankOnDay(item, day) * item.simulation.subcategory_rank_factor));
}

/** Root ranks for an inclusive day range, oldest first (the sales volume model's input). */
export function rootRanks(item: CatalogItemRecord, firstDay: number, lastDay: number): number[] {
  const ranks: number[] = [];
  for (let day = firstDay; day <= lastDay; day++) ranks.push(rootRankOnDay(item, day));
  return ranks;
}

/** Both series over the item's window, day by day (root then subcategory), oldest first. */
export function salesRankSeries(item: CatalogItemRecord, now: Date, level?: CategoryLevel): SalesRankView[] {
  const { firstDay, lastDay } = seriesWindow(item.listed_at, now);
  const rootName = CATEGORIES[item.category].name;
  const points: SalesRankView[] = [];
  for (let day = firstDay; day <= lastDay; day++) {
    const recorded_at = dayStartIso(day);
    if (level !== 'subcategory') {
      points.push({ marketplace_catalog_item_id: item.id, category: rootName, category_level: 'root', rank: rootRankOnDay(item, day), recorded_at });
    }
    if (level !== 'root') {
      points.push({
        marketplace_catalog_item_id: item.id,
        category: item.subcategory,
        category_level: 'subcategory',
        rank: subcategoryRankOnDay(item, day),
        recorded_at,
      });
    }
  }
  return points;
}
