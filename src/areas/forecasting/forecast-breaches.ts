// What calculateOpportunityForecast gives a forecast, held for a whole world: a loaded workspace bundle's world is
// held to it before it is served (world-rules.ts).
import type { Collections } from '../collections.js';
import type { WorldRuleBreach } from '../world-rules.js';

/**
 * Forecasts whose merchant is not their supplier item's (the forecast takes its item's), or whose cost tier is not
 * one of that item's (updating an item's tiers deletes the forecasts of the tiers it removes).
 */
export function forecastRuleBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  for (const forecast of store.opportunity_forecasts.all()) {
    const item = store.supplier_items.get(forecast.supplier_item_id);
    if (!item) continue; // a dangling reference, which the load names on its own
    const breach = (field: string, message: string) => breaches.push({ collection: 'opportunity_forecasts', id: forecast.id, field, message });
    if (item.merchant_id !== forecast.merchant_id) {
      breach(
        'merchant_id',
        `Opportunity forecast ${forecast.id} is of merchant ${forecast.merchant_id}, but its supplier item ${item.id} is of merchant ${item.merchant_id}.`,
      );
    }
    if (!item.costs.some((tier) => tier.id === forecast.supplier_item_cost_id)) {
      breach(
        'supplier_item_cost_id',
        `Opportunity forecast ${forecast.id} names cost tier ${forecast.supplier_item_cost_id}, which is no cost tier of its supplier item ${item.id}.`,
      );
    }
  }
  return breaches;
}
