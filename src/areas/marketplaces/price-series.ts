// The buy-box price series. Derived, never stored: a point is a pure function of the item's simulation seed and the
// day, so the series reaches whatever day the sandbox clock is on and its last point IS the current buy-box price.

import type { components } from '../../contract/document/generated.js';
import type { CatalogItemRecord } from './catalog-records.js';
import { dayStartIso, seriesWindow, utcDay } from './calendar.js';
import { shelfPrice } from './currencies.js';
import { unitAt } from './deterministic-random.js';

/** Sellers reprice weekly (UTC weeks since the epoch), so the price is flat within a week. */
export const REPRICING_PERIOD_DAYS = 7;

/** A price history point as the contract shows it. */
export type PricePointView = components['schemas']['PricePoint'];

/** The buy-box price on a UTC day: base price moved by up to +/- volatility, drawn once per repricing period. */
export function buyBoxPriceOnDay(item: CatalogItemRecord, currency: string, day: number): number {
  const { seed, base_price, price_volatility } = item.simulation;
  const period = Math.floor(day / REPRICING_PERIOD_DAYS);
  const move = unitAt(seed, 'price', period) * 2 - 1;
  return shelfPrice(base_price * (1 + price_volatility * move), currency);
}

/** The current buy-box price: the price history's point for the clock's current day. */
export function currentBuyBoxPrice(item: CatalogItemRecord, currency: string, now: Date): number {
  return buyBoxPriceOnDay(item, currency, utcDay(now));
}

/** Daily prices (oldest first) over the item's series window as of `now`. */
export function priceValues(item: CatalogItemRecord, currency: string, now: Date): number[] {
  const { firstDay, lastDay } = seriesWindow(item.listed_at, now);
  const values: number[] = [];
  for (let day = firstDay; day <= lastDay; day++) values.push(buyBoxPriceOnDay(item, currency, day));
  return values;
}

/** The price history as the contract shows it, oldest first; the last point equals the buy-box offer's price. */
export function priceHistory(item: CatalogItemRecord, currency: string, now: Date): PricePointView[] {
  const { firstDay } = seriesWindow(item.listed_at, now);
  return priceValues(item, currency, now).map((value, i) => ({
    marketplace_catalog_item_id: item.id,
    price: { value, currency },
    recorded_at: dayStartIso(firstDay + i),
  }));
}
