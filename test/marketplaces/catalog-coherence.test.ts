import { describe, expect, it } from 'vitest';
import { DAY_MS, utcDay } from '../../src/areas/marketplaces/calendar.js';
import { currentOffers } from '../../src/areas/marketplaces/current-offers.js';
import { priceHistory } from '../../src/areas/marketplaces/price-series.js';
import { salesRankSeries } from '../../src/areas/marketplaces/sales-rank-series.js';
import { presentCatalogItem } from '../../src/areas/marketplaces/catalog-item-view.js';
import { gatherForecastInputs } from '../../src/areas/forecasting/forecast-inputs.js';
import { salesVolumeForecast } from '../../src/areas/forecasting/sales-volume-forecast.js';
import { dailyUnitsAtRank, marketplaceScale } from '../../src/areas/forecasting/sales-volume-model.js';
import { contractValidator } from '../helpers/contract-schemas.js';
import { REF_DATE, catalogFor, marketplaceOf } from './support/catalog-world.js';

const v = contractValidator();
const catalog = catalogFor();
const LATER = new Date(REF_DATE.getTime() + 45 * DAY_MS + 13 * 3_600_000);

describe.each([
  ['at the seed date', REF_DATE],
  ['after the clock moved 45 days', LATER],
])('the catalog %s', (_label, now) => {
  it('When the price history is read, then its last point is the buy-box offer price, dated today', () => {
    for (const item of catalog) {
      const m = marketplaceOf(item);
      const history = priceHistory(item, m.native_currency, now);
      const offers = currentOffers(item, m, now);
      const last = history[history.length - 1]!;
      expect(last.price).toEqual(offers[0]!.price);
      expect(utcDay(last.recorded_at)).toBe(utcDay(now));
      expect(presentCatalogItem(item, m, now).buy_box_price).toEqual(offers[0]!.price);
    }
  });

  it('When offers are read, then there is one per seller, the winner first with the lowest landed price, all valid', () => {
    for (const item of catalog) {
      const offers = currentOffers(item, marketplaceOf(item), now);
      expect(offers).toHaveLength(item.seller_count);
      expect(offers.filter((o) => o.is_buy_box_winner)).toHaveLength(1);
      expect(offers[0]!.is_buy_box_winner).toBe(true);
      const landed = (o: (typeof offers)[number]) => o.price.value + o.shipping_price.value;
      for (const o of offers) expect(landed(o)).toBeGreaterThanOrEqual(landed(offers[0]!));
      expect(new Set(offers.map((o) => o.seller_id)).size).toBe(offers.length);
      for (const o of offers) expect(v.checkSchema('CatalogItemOffer', o)).toBeNull();
      expect(gatherForecastInputs(item, marketplaceOf(item), { cost: { value: 1, currency: 'USD' }, minimum_order_quantity: 1 }, now).seller_count).toBe(
        offers.length,
      );
    }
  });

  it('When both series are read, then they cover the same days, within a year, and validate', () => {
    for (const item of catalog.slice(0, 30)) {
      const m = marketplaceOf(item);
      const prices = priceHistory(item, m.native_currency, now);
      const ranks = salesRankSeries(item, now, 'root');
      expect(ranks.map((r) => r.recorded_at)).toEqual(prices.map((p) => p.recorded_at));
      expect(prices.length).toBeLessThanOrEqual(365);
      expect(salesRankSeries(item, now)).toHaveLength(prices.length * 2);
      expect(v.checkSchema('PricePoint', prices[0])).toBeNull();
      expect(v.checkSchema('SalesRank', ranks[0])).toBeNull();
    }
  });

  it('When a sales volume forecast is read, then it is computed from the last 30 root ranks the sales-ranks endpoint shows', () => {
    for (const item of catalog.slice(0, 30)) {
      const m = marketplaceOf(item);
      const forecast = salesVolumeForecast(item, m, now, 30);
      expect(v.checkSchema('SalesVolumeForecast', forecast)).toBeNull();
      const used = salesRankSeries(item, now, 'root').slice(-30);
      expect(forecast.sales_rank_observations).toBe(used.length);
      expect(forecast.sales_ranks_to).toBe(used[used.length - 1]!.recorded_at);
      const mean = used.reduce((s, r) => s + dailyUnitsAtRank(r.rank, item.category, marketplaceScale(m)), 0) / used.length;
      expect(forecast.expected_units).toBe(Math.round(mean * 30));
      expect(forecast.expected_units_low).toBeLessThanOrEqual(forecast.expected_units);
      expect(forecast.expected_units).toBeLessThanOrEqual(forecast.expected_units_high);
      const inputs = gatherForecastInputs(item, m, { cost: { value: 1, currency: 'USD' }, minimum_order_quantity: 1 }, now);
      expect([inputs.monthly_units_low, inputs.monthly_units_expected, inputs.monthly_units_high]).toEqual([
        forecast.expected_units_low,
        forecast.expected_units,
        forecast.expected_units_high,
      ]);
    }
  });
});

describe('series as the clock moves', () => {
  it('When the clock moves on, then past points never change and new days are appended', () => {
    for (const item of catalog.slice(0, 20)) {
      const currency = marketplaceOf(item).native_currency;
      const before = priceHistory(item, currency, REF_DATE);
      const after = priceHistory(item, currency, LATER);
      const overlap = after.filter((p) => Date.parse(p.recorded_at) <= REF_DATE.getTime());
      expect(overlap).toEqual(before.slice(before.length - overlap.length));
      expect(after[after.length - 1]!.recorded_at).toBe(new Date(utcDay(LATER) * DAY_MS).toISOString());
    }
  });

  it('When ranks are better, then the sales volume forecast is higher (ranks drive volume)', () => {
    const m = marketplaceOf(catalog[0]!);
    const a = { ...catalog[0]!, simulation: { ...catalog[0]!.simulation, base_sales_rank: 500 } };
    const b = { ...a, simulation: { ...a.simulation, base_sales_rank: 50_000 } };
    expect(salesVolumeForecast(a, m, REF_DATE, 30).expected_units).toBeGreaterThan(salesVolumeForecast(b, m, REF_DATE, 30).expected_units);
  });
});
