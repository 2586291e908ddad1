import { describe, expect, it } from 'vitest';
import { matchesForecastFilters } from '../../src/areas/forecasting/opportunity-filters.js';

const f = {
  id: '8d7c6b5a-4f3e-4d2c-9b1a-0f9e8d7c6b5a',
  marketplace_catalog_item_id: '5b0e3c1a-7f2d-4e8b-9a61-0c3d2e1f4a5b',
  supplier_item_cost_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  risk_adjusted_thirty_day_profit_forecast_high: { value: 1042.62 },
  forecast_inputs: { margin_percent: 43.5 },
};

describe('opportunity forecast list filters', () => {
  it('When minimum_profit is at or below the risk-adjusted high, then the forecast stays; above, it goes', () => {
    expect(matchesForecastFilters(f, { minimum_profit: 1042.62 })).toBe(true);
    expect(matchesForecastFilters(f, { minimum_profit: 1042.63 })).toBe(false);
  });

  it('When maximum_margin_percent is at or above margin_percent, then the forecast stays; below, it goes', () => {
    expect(matchesForecastFilters(f, { maximum_margin_percent: 43.5 })).toBe(true);
    expect(matchesForecastFilters(f, { maximum_margin_percent: 43.49 })).toBe(false);
  });

  it('When id, catalog item or cost tier differ, then the forecast goes; no filters keep it', () => {
    expect(matchesForecastFilters(f, {})).toBe(true);
    expect(
      matchesForecastFilters(f, { id: f.id, marketplace_catalog_item_id: f.marketplace_catalog_item_id, supplier_item_cost_id: f.supplier_item_cost_id }),
    ).toBe(true);
    expect(matchesForecastFilters(f, { id: '00000000-0000-4000-8000-000000000000' })).toBe(false);
    expect(matchesForecastFilters(f, { marketplace_catalog_item_id: '00000000-0000-4000-8000-000000000000' })).toBe(false);
    expect(matchesForecastFilters(f, { supplier_item_cost_id: '00000000-0000-4000-8000-000000000000' })).toBe(false);
  });
});
