// The opportunity forecast model `sandbox-heuristic@1`: pure arithmetic over observable inputs. Every input and
// every intermediate figure goes into forecast_inputs, so a client can redo the sums (docs/forecast-model.md).

import type { components } from '../../contract/document/generated.js';
import type { SizeTier } from '../marketplaces/catalog-records.js';
import type { CategoryCode } from '../marketplaces/categories.js';
import { exchangeRate, roundMoney } from '../marketplaces/currencies.js';
import { REFERRAL_FEE_PERCENT, fulfilmentFee } from './marketplace-fees.js';
import { riskFactors } from './risk-factors.js';
import { riskAdjust, riskMultiplier, riskScore } from './risk-score.js';

/** Name and version shown in `forecast_model`; bump the version when any number below changes. */
export const OPPORTUNITY_MODEL = 'sandbox-heuristic@1';

/** What the sandbox forecasts: buying from a supplier to resell on a marketplace. */
export const OPPORTUNITY_TYPE = 'wholesale';

/** The observable inputs (gathered by forecast-inputs.ts from the catalog and the cost tier). */
export interface OpportunityInputs {
  marketplace_currency: string;
  category: CategoryCode;
  size_tier: SizeTier;
  /** Price of the current buy-box offer = last price-history point. */
  buy_box_price: number;
  /** Number of current offers. */
  seller_count: number;
  price_history_days: number;
  /** Coefficient of variation of the last 90 days of prices. */
  price_volatility: number;
  sales_rank_average: number;
  /** Market-wide units over 30 days (the 30-day sales volume forecast). */
  monthly_units_low: number;
  monthly_units_expected: number;
  monthly_units_high: number;
  unit_cost: number;
  unit_cost_currency: string;
  minimum_order_quantity: number;
  /** Units the supplier can deliver; null when sourcing does not know. */
  supplier_stock_units: number | null;
  review_count: number;
  review_rating: number | null;
  is_brand_protected: boolean;
  requires_compliance_documentation: boolean;
  fake_reviews_detected: boolean;
}

/** forecast_inputs: the inputs plus every derived figure, margin_percent included (the list filter reads it). */
export interface ForecastInputs extends OpportunityInputs {
  buy_box_share: number;
  referral_fee_percent: number;
  fulfilment_fee: number;
  exchange_rate: number;
  unit_cost_converted: number;
  price_low: number;
  unit_profit_at_buy_box: number;
  unit_profit_at_price_low: number;
  units_low: number;
  units_expected: number;
  units_high: number;
  margin_percent: number;
  supplier_stock_days: number | null;
  moq_sell_through_days: number | null;
  risk_multiplier: number;
}

/** The contract's OpportunityForecast: the stored record and the model's answer are cut from it. */
export type OpportunityForecastSchema = components['schemas']['OpportunityForecast'];

/** The keys and timestamps of a forecast: what the model does not compute. */
export type ForecastKeys = 'id' | 'marketplace_catalog_item_id' | 'supplier_item_cost_id' | 'calculated_at' | 'created_at' | 'updated_at';

/**
 * The model's answer: every OpportunityForecast field except the keys and timestamps, with `type` always set and
 * `forecast_inputs` the model's exact figures (the contract's is open-ended, nearly every field optional).
 */
export type OpportunityResult = Omit<OpportunityForecastSchema, ForecastKeys | 'type' | 'forecast_inputs'> & {
  type: string;
  forecast_inputs: ForecastInputs;
};

const round = (v: number, digits: number) => {
  const f = 10 ** digits;
  const r = Math.round(v * f) / f;
  return r === 0 ? 0 : r;
};

/**
 * Runs the model. Profit per unit = price x (1 - referral%) - fulfilment fee - converted unit cost; our units =
 * market units / (sellers + 1) (a new seller shares the buy box). The 30-day range spans the price (buy box, or
 * buy box x (1 - volatility)) and the units (low, high): low = worst combination, high = best, so low <= high and
 * both fall as cost rises.
 */
export function forecastOpportunity(inputs: OpportunityInputs): OpportunityResult {
  const cur = inputs.marketplace_currency;
  const referral = REFERRAL_FEE_PERCENT[inputs.category];
  const fee = fulfilmentFee(inputs.size_tier, cur);
  const rate = exchangeRate(inputs.unit_cost_currency, cur);
  const cost = roundMoney(inputs.unit_cost * rate, cur);
  const share = 1 / (Math.max(0, inputs.seller_count) + 1);

  const priceHigh = inputs.buy_box_price;
  const priceLow = inputs.buy_box_price * Math.max(0, 1 - inputs.price_volatility);
  const unitProfit = (price: number) => price * (1 - referral / 100) - fee - cost;
  const unitsLow = inputs.monthly_units_low * share;
  const unitsHigh = inputs.monthly_units_high * share;
  const unitsExpected = inputs.monthly_units_expected * share;

  const combos = [unitProfit(priceHigh) * unitsHigh, unitProfit(priceHigh) * unitsLow, unitProfit(priceLow) * unitsHigh, unitProfit(priceLow) * unitsLow];
  const high = Math.max(...combos);
  const low = Math.min(...combos);

  const margin = inputs.buy_box_price > 0 ? round((unitProfit(priceHigh) / inputs.buy_box_price) * 100, 2) : -100;
  const dailyUnits = unitsExpected / 30;
  const stockDays = inputs.supplier_stock_units === null || dailyUnits <= 0 ? null : round(inputs.supplier_stock_units / dailyUnits, 1);

  const factors = riskFactors({
    price_history_days: inputs.price_history_days,
    price_volatility: inputs.price_volatility,
    seller_count: inputs.seller_count,
    is_brand_protected: inputs.is_brand_protected,
    category: inputs.category,
    requires_compliance_documentation: inputs.requires_compliance_documentation,
    review_count: inputs.review_count,
    review_rating: inputs.review_rating,
    fake_reviews_detected: inputs.fake_reviews_detected,
    margin_percent: margin,
    supplier_stock_days: stockDays,
  });
  const score = riskScore(factors);
  const money = (v: number): components['schemas']['Money'] => ({ value: roundMoney(v, cur), currency: cur });

  return {
    thirty_day_profit_forecast_high: money(high),
    thirty_day_profit_forecast_low: money(low),
    risk_score: score,
    risk_factors: factors,
    risk_adjusted_thirty_day_profit_forecast_high: money(riskAdjust(high, score)),
    risk_adjusted_thirty_day_profit_forecast_low: money(riskAdjust(low, score)),
    type: OPPORTUNITY_TYPE,
    forecast_model: OPPORTUNITY_MODEL,
    forecast_inputs: {
      ...inputs,
      buy_box_share: round(share, 4),
      referral_fee_percent: referral,
      fulfilment_fee: fee,
      exchange_rate: rate,
      unit_cost_converted: cost,
      price_low: roundMoney(priceLow, cur),
      unit_profit_at_buy_box: roundMoney(unitProfit(priceHigh), cur),
      unit_profit_at_price_low: roundMoney(unitProfit(priceLow), cur),
      units_low: round(unitsLow, 1),
      units_expected: round(unitsExpected, 1),
      units_high: round(unitsHigh, 1),
      margin_percent: margin,
      supplier_stock_days: stockDays,
      moq_sell_through_days: dailyUnits > 0 ? round(inputs.minimum_order_quantity / dailyUnits, 1) : null,
      risk_multiplier: riskMultiplier(score),
    },
  };
}
