// Stored shape of an opportunity forecast. merchant_id and supplier_item_id are kept for access checks and cascades
// (a merchant's or supplier item's deletion removes its forecasts) and are stripped by the presenter.

import type { RiskFactor } from './risk-factors.js';
import type { ForecastInputs } from './opportunity-model.js';

type Money = { value: number; currency: string };

/** One calculated forecast, as stored in the opportunity_forecasts collection. */
export interface OpportunityForecastRecord {
  id: string;
  merchant_id: string;
  supplier_item_id: string;
  marketplace_catalog_item_id: string;
  supplier_item_cost_id: string;
  thirty_day_profit_forecast_high: Money;
  thirty_day_profit_forecast_low: Money;
  risk_score: number;
  risk_factors: RiskFactor[];
  risk_adjusted_thirty_day_profit_forecast_high: Money;
  risk_adjusted_thirty_day_profit_forecast_low: Money;
  calculated_at: string;
  type: string;
  forecast_model: string;
  forecast_inputs: ForecastInputs;
  created_at: string;
  updated_at: string;
}

/** The forecast as the contract shows it (everything but the internal keys). */
export function presentOpportunityForecast(record: OpportunityForecastRecord) {
  const { merchant_id: _m, supplier_item_id: _s, forecast_inputs, ...shown } = record;
  // A spread copy: the contract's forecast_inputs is open-ended (an index signature), which an interface is not.
  return { ...shown, forecast_inputs: { ...forecast_inputs } };
}
