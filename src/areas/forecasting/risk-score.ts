// The risk score is a plain sum of documented weights, so an integrator can recompute it from risk_factors.

import type { RiskFactor } from './risk-factors.js';

/** Every forecast carries some risk. */
export const BASE_RISK = 5;

/** Points each factor adds to the score. */
export const RISK_WEIGHTS: Readonly<Record<RiskFactor, number>> = {
  limited_price_history: 8,
  highly_variable_price_history: 10,
  multiple_sellers_1_to_3: 2,
  multiple_sellers_3_to_10: 6,
  multiple_sellers_10_to_20: 12,
  multiple_sellers_over_20: 18,
  brand_protected_single_seller: 25,
  restricted_category_medical: 15,
  restricted_category_food: 10,
  restricted_category_clothing: 6,
  restricted_category_electronics: 8,
  restricted_category_household: 6,
  requires_compliance_documentation: 8,
  low_review_volume: 6,
  low_review_rating_under_4_5: 3,
  low_review_rating_under_4: 7,
  low_review_rating_under_3_5: 12,
  low_review_rating_under_3: 18,
  fake_reviews_detected: 15,
  low_margins_under_20_percent: 8,
  low_margins_under_10_percent: 15,
  low_margins_under_5_percent: 25,
  low_supplier_stock_under_2_months: 4,
  low_supplier_stock_under_1_month: 10,
  low_supplier_stock_under_1_week: 20,
};

/** BASE_RISK + the factors' weights, clamped to the specification's 1..100. */
export function riskScore(factors: readonly RiskFactor[]): number {
  const sum = factors.reduce((s, f) => s + RISK_WEIGHTS[f], BASE_RISK);
  return Math.min(100, Math.max(1, Math.round(sum)));
}

/** How much of a profit survives the risk: 1 - 0.008 x score, from 0.992 (score 1) down to 0.2 (score 100). */
export function riskMultiplier(score: number): number {
  return Math.round((1 - 0.008 * score) * 1e6) / 1e6;
}

/**
 * Risk-adjusts an amount: a profit shrinks by the multiplier and a loss grows by the same proportion, so the
 * adjusted figure is never above the unadjusted one and falls as the score rises.
 */
export function riskAdjust(amount: number, score: number): number {
  const m = riskMultiplier(score);
  return amount >= 0 ? amount * m : amount * (2 - m);
}
