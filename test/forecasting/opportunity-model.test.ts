import { describe, expect, it } from 'vitest';
import { forecastOpportunity, OPPORTUNITY_MODEL } from '../../src/areas/forecasting/opportunity-model.js';
import { fulfilmentFee } from '../../src/areas/forecasting/marketplace-fees.js';
import { exchangeRate, roundMoney, UnsupportedCurrencyError } from '../../src/areas/marketplaces/currencies.js';
import { contractValidator } from '../helpers/contract-schemas.js';
import { WORKED_EXAMPLE } from './worked-example.js';

describe('sandbox-heuristic@1, the worked example (hand-checked)', () => {
  const r = forecastOpportunity(WORKED_EXAMPLE);
  const i = r.forecast_inputs;

  it('When the cost is converted and fees applied, then the unit figures are the hand-computed ones', () => {
    // 6.50 EUR x 1.10 = 7.15 USD; referral 15% of 24.99; fulfilment 3.22 USD (small standard).
    expect(i.exchange_rate).toBe(1.1);
    expect(i.unit_cost_converted).toBe(7.15);
    expect(i.referral_fee_percent).toBe(15);
    expect(i.fulfilment_fee).toBe(3.22);
    // 24.99 x 0.85 - 3.22 - 7.15 = 10.8715 -> 10.87; margin 10.8715 / 24.99 = 43.50%.
    expect(i.unit_profit_at_buy_box).toBe(10.87);
    expect(i.margin_percent).toBe(43.5);
    // Low price 24.99 x (1 - 0.06) = 23.4906; 23.4906 x 0.85 - 10.37 = 9.59701.
    expect(i.price_low).toBe(23.49);
    expect(i.unit_profit_at_price_low).toBe(9.6);
    // 5 sellers after us: share 1/5 of 300 / 420 / 540 units.
    expect(i.buy_box_share).toBe(0.2);
    expect([i.units_low, i.units_expected, i.units_high]).toEqual([60, 84, 108]);
  });

  it('When the 30-day range is computed, then high = best price x high units and low = worst x low units', () => {
    expect(r.thirty_day_profit_forecast_high).toEqual({ value: 1174.12, currency: 'USD' }); // 10.8715 x 108
    expect(r.thirty_day_profit_forecast_low).toEqual({ value: 575.82, currency: 'USD' }); // 9.59701 x 60
  });

  it('When risk is assessed, then the factors, score and risk adjustment are the documented ones', () => {
    // 4 sellers -> 3_to_10 (6 points); rating 4.4 -> under_4_5 (3 points); base 5 -> 14.
    expect(r.risk_factors).toEqual(['multiple_sellers_3_to_10', 'low_review_rating_under_4_5']);
    expect(r.risk_score).toBe(14);
    expect(i.risk_multiplier).toBe(0.888); // 1 - 0.008 x 14
    expect(r.risk_adjusted_thirty_day_profit_forecast_high).toEqual({ value: 1042.62, currency: 'USD' }); // 1174.122 x 0.888
    expect(r.risk_adjusted_thirty_day_profit_forecast_low).toEqual({ value: 511.33, currency: 'USD' }); // 575.8206 x 0.888
    expect(i.supplier_stock_days).toBe(178.6); // 500 / (84 / 30)
  });

  it('When the supplier has 150 units instead of 500, then the stock lasts 53.6 days and under_2_months adds its 4 points', () => {
    const low = forecastOpportunity({ ...WORKED_EXAMPLE, supplier_stock_units: 150 });
    expect(low.forecast_inputs.supplier_stock_days).toBe(53.6); // 150 / 2.8
    expect(low.risk_factors).toEqual(['multiple_sellers_3_to_10', 'low_review_rating_under_4_5', 'low_supplier_stock_under_2_months']);
    expect(low.risk_score).toBe(18);
    expect(low.forecast_inputs.risk_multiplier).toBe(0.856);
    expect(low.thirty_day_profit_forecast_high).toEqual(r.thirty_day_profit_forecast_high);
    expect(low.risk_adjusted_thirty_day_profit_forecast_high).toEqual({ value: 1005.05, currency: 'USD' }); // 1174.122 x 0.856
    expect(low.risk_adjusted_thirty_day_profit_forecast_low).toEqual({ value: 492.9, currency: 'USD' }); // 575.8206 x 0.856
    const unknown = forecastOpportunity({ ...WORKED_EXAMPLE, supplier_stock_units: null });
    expect(unknown.forecast_inputs.supplier_stock_days).toBeNull();
    expect(unknown.risk_factors).toEqual(r.risk_factors);
  });

  it('When stored with ids and timestamps, then the record validates against OpportunityForecast', () => {
    const stamp = '2024-09-02T10:00:00.000Z';
    const record = {
      id: '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a',
      marketplace_catalog_item_id: '5b0e3c1a-7f2d-4e8b-9a61-0c3d2e1f4a5b',
      supplier_item_cost_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
      ...r,
      calculated_at: stamp,
      created_at: stamp,
      updated_at: stamp,
    };
    expect(contractValidator().checkSchema('OpportunityForecast', record)).toBeNull();
    expect(r.forecast_model).toBe(OPPORTUNITY_MODEL);
  });
});

describe('the model around the example', () => {
  it('When the item has one brand-protected seller, then the factor and the 1_to_3 bucket are raised', () => {
    const r = forecastOpportunity({ ...WORKED_EXAMPLE, seller_count: 1, is_brand_protected: true });
    expect(r.risk_factors).toEqual(expect.arrayContaining(['multiple_sellers_1_to_3', 'brand_protected_single_seller']));
  });

  it('When the cost makes selling lose money, then profits are negative and the adjustment makes losses larger', () => {
    const r = forecastOpportunity({ ...WORKED_EXAMPLE, unit_cost: 30 });
    expect(r.forecast_inputs.margin_percent).toBeLessThan(0);
    expect(r.risk_factors).toContain('low_margins_under_5_percent');
    expect(r.risk_adjusted_thirty_day_profit_forecast_low.value).toBeLessThan(r.thirty_day_profit_forecast_low.value);
  });

  it('When the marketplace is in yen, then money is whole yen and the fee is converted from USD', () => {
    const r = forecastOpportunity({ ...WORKED_EXAMPLE, marketplace_currency: 'JPY', buy_box_price: 3980, unit_cost: 900, unit_cost_currency: 'CNY' });
    expect(fulfilmentFee('small_standard', 'JPY')).toBe(Math.round(3.22 * exchangeRate('USD', 'JPY')));
    expect(Number.isInteger(r.thirty_day_profit_forecast_high.value)).toBe(true);
    expect(r.thirty_day_profit_forecast_high.currency).toBe('JPY');
  });

  it('When the cost currency is not in the exchange table, then the model refuses (the handler answers 422)', () => {
    expect(() => forecastOpportunity({ ...WORKED_EXAMPLE, unit_cost_currency: 'XAU' })).toThrow(UnsupportedCurrencyError);
  });

  it('When amounts are rounded, then cents are kept and -0 never appears', () => {
    expect(roundMoney(1.005, 'USD')).toBe(1.01);
    expect(Object.is(roundMoney(-0.001, 'USD'), 0)).toBe(true);
  });
});
