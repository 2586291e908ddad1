// One place builds a stored forecast, so the seed and POST .../calculate give the same numbers for the same inputs.

import type { CatalogItemRecord, MarketplaceRecord } from '../marketplaces/catalog-records.js';
import type { CostTierRecord, SupplierItemRecord } from '../sourcing/records.js';
import type { OpportunityForecastRecord } from './forecast-records.js';
import { gatherForecastInputs } from './forecast-inputs.js';
import { forecastOpportunity } from './opportunity-model.js';

/** What one forecast is calculated from. */
export interface ForecastSubject {
  item: CatalogItemRecord;
  marketplace: MarketplaceRecord;
  supplierItem: SupplierItemRecord;
  tier: CostTierRecord;
}

/** The forecast record for a catalog item and a cost tier as of `now` (throws UnsupportedCurrencyError). */
export function buildForecast(id: string, { item, marketplace, supplierItem, tier }: ForecastSubject, now: Date): OpportunityForecastRecord {
  // Stock belongs to the supplier item (every tier draws on it); an item stored before the field existed has none.
  const stock = supplierItem.stock_quantity ?? null;
  const result = forecastOpportunity(gatherForecastInputs(item, marketplace, { ...tier, supplier_stock_units: stock }, now));
  const stamp = now.toISOString();
  return {
    id,
    merchant_id: supplierItem.merchant_id,
    supplier_item_id: supplierItem.id,
    marketplace_catalog_item_id: item.id,
    supplier_item_cost_id: tier.id,
    thirty_day_profit_forecast_high: result.thirty_day_profit_forecast_high,
    thirty_day_profit_forecast_low: result.thirty_day_profit_forecast_low,
    risk_score: result.risk_score,
    risk_factors: result.risk_factors,
    risk_adjusted_thirty_day_profit_forecast_high: result.risk_adjusted_thirty_day_profit_forecast_high,
    risk_adjusted_thirty_day_profit_forecast_low: result.risk_adjusted_thirty_day_profit_forecast_low,
    calculated_at: stamp,
    type: result.type,
    forecast_model: result.forecast_model,
    forecast_inputs: result.forecast_inputs,
    created_at: stamp,
    updated_at: stamp,
  };
}
