// Stored shape of an opportunity forecast. merchant_id and supplier_item_id are kept for access checks and cascades
// (a merchant's or supplier item's deletion removes its forecasts) and are stripped by the presenter.

import type { ForecastKeys, OpportunityForecastSchema, OpportunityResult } from './opportunity-model.js';

/** One calculated forecast, as stored in the opportunity_forecasts collection: the model's result and its keys. */
export type OpportunityForecastRecord = OpportunityResult & Pick<OpportunityForecastSchema, ForecastKeys> & { merchant_id: string; supplier_item_id: string };

/** The forecast as the contract shows it (everything but the internal keys). */
export function presentOpportunityForecast(record: OpportunityForecastRecord) {
  const { merchant_id: _m, supplier_item_id: _s, forecast_inputs, ...shown } = record;
  // A spread copy: the contract's forecast_inputs is open-ended (an index signature), which an interface is not.
  return { ...shown, forecast_inputs: { ...forecast_inputs } };
}
