// Risk factors by documented thresholds. Each family contributes at most its most severe value, so a forecast
// never says both "under 20%" and "under 5%".

import type { components } from '../../contract/document/generated.js';
import type { CategoryCode } from '../marketplaces/categories.js';

/** A risk factor, as the contract's RiskFactor enum names it. */
export type RiskFactor = components['schemas']['RiskFactor'];

/** The 25 values the specification allows, in its order (the order factors are reported in). */
export const RISK_FACTORS: readonly RiskFactor[] = [
  'limited_price_history',
  'highly_variable_price_history',
  'multiple_sellers_1_to_3',
  'multiple_sellers_3_to_10',
  'multiple_sellers_10_to_20',
  'multiple_sellers_over_20',
  'brand_protected_single_seller',
  'restricted_category_medical',
  'restricted_category_food',
  'restricted_category_clothing',
  'restricted_category_electronics',
  'restricted_category_household',
  'requires_compliance_documentation',
  'low_review_volume',
  'low_review_rating_under_4_5',
  'low_review_rating_under_4',
  'low_review_rating_under_3_5',
  'low_review_rating_under_3',
  'fake_reviews_detected',
  'low_margins_under_20_percent',
  'low_margins_under_10_percent',
  'low_margins_under_5_percent',
  'low_supplier_stock_under_2_months',
  'low_supplier_stock_under_1_month',
  'low_supplier_stock_under_1_week',
];

/** Thresholds, exported so docs/forecast-model.md and tests quote the numbers the code uses. */
export const THRESHOLDS = {
  /** Fewer days of price history than this: limited_price_history. */
  minPriceHistoryDays: 90,
  /** Coefficient of variation above this: highly_variable_price_history. */
  maxPriceVolatility: 0.1,
  /** Fewer reviews than this: low_review_volume. */
  minReviewCount: 50,
} as const;

/** Categories that need approval to sell in, and the factor each raises. */
export const RESTRICTED_CATEGORIES: Partial<Record<CategoryCode, RiskFactor>> = {
  health_medical: 'restricted_category_medical',
  grocery_food: 'restricted_category_food',
  clothing_apparel: 'restricted_category_clothing',
  electronics: 'restricted_category_electronics',
  household_supplies: 'restricted_category_household',
};

/** What the factors are decided from (all of it is echoed in forecast_inputs). */
export interface RiskSignals {
  price_history_days: number;
  price_volatility: number;
  seller_count: number;
  is_brand_protected: boolean;
  category: CategoryCode;
  requires_compliance_documentation: boolean;
  review_count: number;
  review_rating: number | null;
  fake_reviews_detected: boolean;
  margin_percent: number;
  /** Days the supplier's stock lasts at the expected sales rate; null when stock is unknown or nothing sells. */
  supplier_stock_days: number | null;
}

function sellerBucket(n: number): RiskFactor | undefined {
  // Buckets share their edges in the specification's names; the sandbox reads them as 1-3, 4-10, 11-20, 21+.
  if (n < 1) return undefined;
  if (n <= 3) return 'multiple_sellers_1_to_3';
  if (n <= 10) return 'multiple_sellers_3_to_10';
  if (n <= 20) return 'multiple_sellers_10_to_20';
  return 'multiple_sellers_over_20';
}

function ratingBucket(rating: number | null): RiskFactor | undefined {
  if (rating === null) return undefined;
  if (rating < 3) return 'low_review_rating_under_3';
  if (rating < 3.5) return 'low_review_rating_under_3_5';
  if (rating < 4) return 'low_review_rating_under_4';
  if (rating < 4.5) return 'low_review_rating_under_4_5';
  return undefined;
}

function marginBucket(margin: number): RiskFactor | undefined {
  if (margin < 5) return 'low_margins_under_5_percent';
  if (margin < 10) return 'low_margins_under_10_percent';
  if (margin < 20) return 'low_margins_under_20_percent';
  return undefined;
}

function stockBucket(days: number | null): RiskFactor | undefined {
  if (days === null) return undefined;
  if (days < 7) return 'low_supplier_stock_under_1_week';
  if (days < 30) return 'low_supplier_stock_under_1_month';
  if (days < 60) return 'low_supplier_stock_under_2_months';
  return undefined;
}

/** The factors that apply, in the specification's order. */
export function riskFactors(s: RiskSignals): RiskFactor[] {
  const found = new Set<RiskFactor | undefined>([
    s.price_history_days < THRESHOLDS.minPriceHistoryDays ? 'limited_price_history' : undefined,
    s.price_volatility > THRESHOLDS.maxPriceVolatility ? 'highly_variable_price_history' : undefined,
    sellerBucket(s.seller_count),
    s.is_brand_protected && s.seller_count === 1 ? 'brand_protected_single_seller' : undefined,
    RESTRICTED_CATEGORIES[s.category],
    s.requires_compliance_documentation ? 'requires_compliance_documentation' : undefined,
    s.review_count < THRESHOLDS.minReviewCount ? 'low_review_volume' : undefined,
    ratingBucket(s.review_rating),
    s.fake_reviews_detected ? 'fake_reviews_detected' : undefined,
    marginBucket(s.margin_percent),
    stockBucket(s.supplier_stock_days),
  ]);
  return RISK_FACTORS.filter((f) => found.has(f));
}
