import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { forecastOpportunity, type OpportunityInputs } from '../../src/areas/forecasting/opportunity-model.js';
import { RISK_FACTORS } from '../../src/areas/forecasting/risk-factors.js';
import { CATEGORY_CODES } from '../../src/areas/marketplaces/categories.js';
import { USD_PER_UNIT } from '../../src/areas/marketplaces/currencies.js';

const currencies = Object.keys(USD_PER_UNIT);

const unitRange = fc
  .tuple(fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 50_000 }), fc.integer({ min: 0, max: 50_000 }))
  .map((t) => t.sort((a, b) => a - b));

const inputs: fc.Arbitrary<OpportunityInputs> = fc
  .record({
    marketplace_currency: fc.constantFrom(...currencies),
    category: fc.constantFrom(...CATEGORY_CODES),
    size_tier: fc.constantFrom('small_standard' as const, 'large_standard' as const, 'oversize' as const),
    buy_box_price: fc.double({ min: 0.5, max: 100_000, noNaN: true }),
    seller_count: fc.integer({ min: 1, max: 60 }),
    price_history_days: fc.integer({ min: 1, max: 365 }),
    price_volatility: fc.double({ min: 0, max: 1, noNaN: true }),
    sales_rank_average: fc.integer({ min: 1, max: 1_000_000 }),
    units: unitRange,
    unit_cost: fc.double({ min: 0, max: 100_000, noNaN: true }),
    unit_cost_currency: fc.constantFrom(...currencies),
    minimum_order_quantity: fc.integer({ min: 1, max: 10_000 }),
    supplier_stock_units: fc.option(fc.integer({ min: 0, max: 100_000 }), { nil: null }),
    review_count: fc.integer({ min: 0, max: 100_000 }),
    review_rating: fc.option(fc.double({ min: 1, max: 5, noNaN: true }), { nil: null }),
    is_brand_protected: fc.boolean(),
    requires_compliance_documentation: fc.boolean(),
    fake_reviews_detected: fc.boolean(),
  })
  .map(({ units: [low, expected, high], ...rest }) => ({
    ...rest,
    monthly_units_low: low!,
    monthly_units_expected: expected!,
    monthly_units_high: high!,
  }));

describe('sandbox-heuristic@1 properties', () => {
  it('When any inputs are forecast, then low <= high, adjusted <= unadjusted, score 1..100, factors from the 25', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const r = forecastOpportunity(i);
        expect(r.thirty_day_profit_forecast_low.value).toBeLessThanOrEqual(r.thirty_day_profit_forecast_high.value);
        expect(r.risk_adjusted_thirty_day_profit_forecast_low.value).toBeLessThanOrEqual(r.risk_adjusted_thirty_day_profit_forecast_high.value);
        expect(r.risk_adjusted_thirty_day_profit_forecast_high.value).toBeLessThanOrEqual(r.thirty_day_profit_forecast_high.value);
        expect(r.risk_adjusted_thirty_day_profit_forecast_low.value).toBeLessThanOrEqual(r.thirty_day_profit_forecast_low.value);
        expect(Number.isInteger(r.risk_score)).toBe(true);
        expect(r.risk_score).toBeGreaterThanOrEqual(1);
        expect(r.risk_score).toBeLessThanOrEqual(100);
        for (const f of r.risk_factors) expect(RISK_FACTORS).toContain(f);
        expect(new Set(r.risk_factors).size).toBe(r.risk_factors.length);
        expect(Number.isFinite(r.forecast_inputs.margin_percent)).toBe(true);
        for (const m of [r.thirty_day_profit_forecast_high, r.risk_adjusted_thirty_day_profit_forecast_low]) {
          expect(m.currency).toBe(i.marketplace_currency);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('When the unit cost rises, then no profit figure rises (unadjusted or risk-adjusted)', () => {
    fc.assert(
      fc.property(inputs, fc.double({ min: 0, max: 10_000, noNaN: true }), (i, extra) => {
        const a = forecastOpportunity(i);
        const b = forecastOpportunity({ ...i, unit_cost: i.unit_cost + extra });
        expect(b.thirty_day_profit_forecast_high.value).toBeLessThanOrEqual(a.thirty_day_profit_forecast_high.value);
        expect(b.thirty_day_profit_forecast_low.value).toBeLessThanOrEqual(a.thirty_day_profit_forecast_low.value);
        expect(b.risk_adjusted_thirty_day_profit_forecast_high.value).toBeLessThanOrEqual(a.risk_adjusted_thirty_day_profit_forecast_high.value);
        expect(b.risk_adjusted_thirty_day_profit_forecast_low.value).toBeLessThanOrEqual(a.risk_adjusted_thirty_day_profit_forecast_low.value);
        expect(b.forecast_inputs.margin_percent).toBeLessThanOrEqual(a.forecast_inputs.margin_percent);
      }),
      { numRuns: 500 },
    );
  });

  it('When the same inputs are forecast twice, then the results are identical', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        expect(forecastOpportunity(structuredClone(i))).toEqual(forecastOpportunity(i));
      }),
      { numRuns: 200 },
    );
  });

  it('When a factor is raised, then the risk-adjusted high never rises', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const calm = forecastOpportunity({ ...i, fake_reviews_detected: false });
        const flagged = forecastOpportunity({ ...i, fake_reviews_detected: true });
        expect(flagged.risk_score).toBeGreaterThanOrEqual(calm.risk_score);
        expect(flagged.risk_adjusted_thirty_day_profit_forecast_high.value).toBeLessThanOrEqual(calm.risk_adjusted_thirty_day_profit_forecast_high.value);
      }),
      { numRuns: 200 },
    );
  });
});
