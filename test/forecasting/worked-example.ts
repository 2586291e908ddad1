// The worked example of docs/forecast-model.md, shared by the arithmetic test and the docs.
import type { OpportunityInputs } from '../../src/areas/forecasting/opportunity-model.js';

export const WORKED_EXAMPLE: OpportunityInputs = {
  marketplace_currency: 'USD',
  category: 'home_kitchen',
  size_tier: 'small_standard',
  buy_box_price: 24.99,
  seller_count: 4,
  price_history_days: 180,
  price_volatility: 0.06,
  sales_rank_average: 8412,
  monthly_units_low: 300,
  monthly_units_expected: 420,
  monthly_units_high: 540,
  unit_cost: 6.5,
  unit_cost_currency: 'EUR',
  minimum_order_quantity: 100,
  supplier_stock_units: 500,
  review_count: 1284,
  review_rating: 4.4,
  is_brand_protected: false,
  requires_compliance_documentation: false,
  fake_reviews_detected: false,
};
