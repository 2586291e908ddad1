// Gathers the model's inputs from the catalog as of `now`, through the same functions the catalog endpoints
// answer with, so every input can be checked against GET current-offers / price-history / sales-volume-forecasts.

import type { CatalogItemRecord, MarketplaceRecord } from '../marketplaces/catalog-records.js';
import { currentOffers } from '../marketplaces/current-offers.js';
import { priceValues } from '../marketplaces/price-series.js';
import type { OpportunityInputs } from './opportunity-model.js';
import { recentVolatility } from './price-statistics.js';
import { salesVolumeForItem } from './sales-volume-model.js';

/** The cost tier side of a forecast (from the sourcing area's supplier item). */
export interface CostTierInput {
  cost: { value: number; currency: string };
  minimum_order_quantity: number;
  /** The supplier item's stock_quantity; null or left out when unknown (no stock factor is raised). */
  supplier_stock_units?: number | null;
}

/** Every input of `sandbox-heuristic@1` for a catalog item and a cost tier, as of `now`. */
export function gatherForecastInputs(item: CatalogItemRecord, marketplace: MarketplaceRecord, tier: CostTierInput, now: Date): OpportunityInputs {
  const currency = marketplace.native_currency;
  const offers = currentOffers(item, marketplace, now);
  const prices = priceValues(item, currency, now);
  const { units, basis } = salesVolumeForItem(item, marketplace, now, 30);
  return {
    marketplace_currency: currency,
    category: item.category,
    size_tier: item.size_tier,
    buy_box_price: offers[0]?.price.value ?? prices[prices.length - 1] ?? 0,
    seller_count: offers.length,
    price_history_days: prices.length,
    price_volatility: recentVolatility(prices),
    sales_rank_average: basis.average,
    monthly_units_low: units.low,
    monthly_units_expected: units.expected,
    monthly_units_high: units.high,
    unit_cost: tier.cost.value,
    unit_cost_currency: tier.cost.currency,
    minimum_order_quantity: tier.minimum_order_quantity,
    supplier_stock_units: tier.supplier_stock_units ?? null,
    review_count: item.review_count,
    review_rating: item.review_rating,
    is_brand_protected: item.is_brand_protected,
    requires_compliance_documentation: item.requires_compliance_documentation,
    fake_reviews_detected: item.fake_reviews_detected,
  };
}
