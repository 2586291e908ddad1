import { defineCollection } from '../../store/collection.js';
import type { OpportunityForecastRecord } from './forecast-records.js';

export type { OpportunityForecastRecord } from './forecast-records.js';

/**
 * Opportunity forecasts, found by their merchant (the list), their cost tier and supplier item (sourcing's
 * deletions take their forecasts along) and their catalog item (the list's filter).
 */
export const forecastingCollections = {
  opportunity_forecasts: defineCollection<OpportunityForecastRecord>({
    indexes: ['merchant_id', 'supplier_item_id', 'supplier_item_cost_id', 'marketplace_catalog_item_id'],
  }),
};
