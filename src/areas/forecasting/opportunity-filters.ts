// The list's filters as one predicate, so the handler and its tests share the exact comparison rules.

/** The stored fields the filters read (the record also carries merchant_id, which the handler checks first). */
export interface FilterableForecast {
  id: string;
  marketplace_catalog_item_id: string;
  supplier_item_cost_id: string;
  risk_adjusted_thirty_day_profit_forecast_high: { value: number };
  forecast_inputs: { margin_percent: number };
}

/** Query filters of GET /forecasting/opportunity-forecasts (besides merchant_id and paging). */
export interface OpportunityForecastFilters {
  id?: string;
  minimum_profit?: number;
  maximum_margin_percent?: number;
  marketplace_catalog_item_id?: string;
  supplier_item_cost_id?: string;
}

/** minimum_profit compares with the risk-adjusted high (inclusive); maximum_margin_percent with margin_percent (inclusive). */
export function matchesForecastFilters(f: FilterableForecast, q: OpportunityForecastFilters): boolean {
  if (q.id !== undefined && f.id !== q.id) return false;
  if (q.marketplace_catalog_item_id !== undefined && f.marketplace_catalog_item_id !== q.marketplace_catalog_item_id) return false;
  if (q.supplier_item_cost_id !== undefined && f.supplier_item_cost_id !== q.supplier_item_cost_id) return false;
  if (q.minimum_profit !== undefined && f.risk_adjusted_thirty_day_profit_forecast_high.value < q.minimum_profit) return false;
  if (q.maximum_margin_percent !== undefined && f.forecast_inputs.margin_percent > q.maximum_margin_percent) return false;
  return true;
}
