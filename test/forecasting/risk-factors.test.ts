import { describe, expect, it } from 'vitest';
import { riskFactors, RISK_FACTORS, type RiskSignals } from '../../src/areas/forecasting/risk-factors.js';
import { riskAdjust, riskScore, RISK_WEIGHTS } from '../../src/areas/forecasting/risk-score.js';

const calm: RiskSignals = {
  price_history_days: 365,
  price_volatility: 0.02,
  seller_count: 5,
  is_brand_protected: false,
  category: 'home_kitchen',
  requires_compliance_documentation: false,
  review_count: 500,
  review_rating: 4.7,
  fake_reviews_detected: false,
  margin_percent: 35,
  supplier_stock_days: null,
};

describe('risk factor thresholds', () => {
  it.each([
    [{ price_history_days: 89 }, 'limited_price_history'],
    [{ price_volatility: 0.1001 }, 'highly_variable_price_history'],
    [{ seller_count: 3 }, 'multiple_sellers_1_to_3'],
    [{ seller_count: 10 }, 'multiple_sellers_3_to_10'],
    [{ seller_count: 11 }, 'multiple_sellers_10_to_20'],
    [{ seller_count: 21 }, 'multiple_sellers_over_20'],
    [{ category: 'health_medical' }, 'restricted_category_medical'],
    [{ category: 'grocery_food' }, 'restricted_category_food'],
    [{ category: 'clothing_apparel' }, 'restricted_category_clothing'],
    [{ category: 'electronics' }, 'restricted_category_electronics'],
    [{ category: 'household_supplies' }, 'restricted_category_household'],
    [{ requires_compliance_documentation: true }, 'requires_compliance_documentation'],
    [{ review_count: 49 }, 'low_review_volume'],
    [{ review_rating: 4.49 }, 'low_review_rating_under_4_5'],
    [{ review_rating: 3.99 }, 'low_review_rating_under_4'],
    [{ review_rating: 3.49 }, 'low_review_rating_under_3_5'],
    [{ review_rating: 2.99 }, 'low_review_rating_under_3'],
    [{ fake_reviews_detected: true }, 'fake_reviews_detected'],
    [{ margin_percent: 19.99 }, 'low_margins_under_20_percent'],
    [{ margin_percent: 9.99 }, 'low_margins_under_10_percent'],
    [{ margin_percent: 4.99 }, 'low_margins_under_5_percent'],
    [{ supplier_stock_days: 59.9 }, 'low_supplier_stock_under_2_months'],
    [{ supplier_stock_days: 29.9 }, 'low_supplier_stock_under_1_month'],
    [{ supplier_stock_days: 6.9 }, 'low_supplier_stock_under_1_week'],
  ] as const)('When %o, then %s is raised (and only the most severe of its family)', (change, factor) => {
    const factors = riskFactors({ ...calm, seller_count: 0, ...change } as RiskSignals);
    expect(factors).toEqual([factor]);
  });

  it('When exactly at a boundary, then the milder side applies', () => {
    expect(
      riskFactors({
        ...calm,
        seller_count: 0,
        price_history_days: 90,
        price_volatility: 0.1,
        review_count: 50,
        review_rating: 4.5,
        margin_percent: 20,
        supplier_stock_days: 60,
      }),
    ).toEqual([]);
  });

  it('When one seller is brand-protected, then brand_protected_single_seller joins the 1_to_3 bucket', () => {
    expect(riskFactors({ ...calm, seller_count: 1, is_brand_protected: true })).toEqual(['multiple_sellers_1_to_3', 'brand_protected_single_seller']);
  });

  it('When every factor is weighted, then each weight is positive and the score clamps at 100', () => {
    for (const f of RISK_FACTORS) expect(RISK_WEIGHTS[f]).toBeGreaterThan(0);
    expect(riskScore([])).toBe(5);
    expect(riskScore([...RISK_FACTORS])).toBe(100);
  });

  it('When amounts are risk-adjusted, then profits shrink and losses grow', () => {
    expect(riskAdjust(100, 50)).toBeCloseTo(60);
    expect(riskAdjust(-100, 50)).toBeCloseTo(-140);
    expect(riskAdjust(0, 100)).toBe(0);
  });
});
