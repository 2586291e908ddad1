import type { Collections } from '../collections.js';

/** A merchant's opportunity forecasts go with it. */
export function deleteMerchantForecasting(store: Collections, merchantId: string): void {
  for (const forecast of store.opportunity_forecasts.where('merchant_id', merchantId)) store.opportunity_forecasts.remove(forecast.id);
}

/** Forecasts calculated on these cost tiers: a forecast never outlives the tier it was calculated on. */
export function deleteForecastsOfCostTiers(store: Collections, costIds: readonly string[]): void {
  for (const costId of costIds) {
    for (const forecast of store.opportunity_forecasts.where('supplier_item_cost_id', costId)) store.opportunity_forecasts.remove(forecast.id);
  }
}
