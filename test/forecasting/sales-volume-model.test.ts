import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dailyUnitsAtRank, unitsFromRanks } from '../../src/areas/forecasting/sales-volume-model.js';

describe('the sales volume model', () => {
  it('When the rank is 1,000 in Home & Kitchen on the US marketplace, then about 40 units a day sell', () => {
    // 10,000 x 1 x 1000^-0.8 = 39.8
    expect(dailyUnitsAtRank(1000, 'home_kitchen', 1)).toBeCloseTo(39.81, 2);
  });

  it('When the rank worsens, then units never rise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_000_000 }), (rank, worse) => {
        expect(dailyUnitsAtRank(rank + worse, 'toys_games', 0.3)).toBeLessThanOrEqual(dailyUnitsAtRank(rank, 'toys_games', 0.3));
      }),
    );
  });

  it('When any ranks are observed, then low <= expected <= high and the range scales with the period', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 500_000 }), { minLength: 1, maxLength: 30 }), (ranks) => {
        const r = unitsFromRanks(ranks, 'electronics', 1, 30);
        expect(r.low).toBeLessThanOrEqual(r.expected);
        expect(r.expected).toBeLessThanOrEqual(r.high);
        expect(unitsFromRanks(ranks, 'electronics', 1, 90).expected).toBeGreaterThanOrEqual(r.expected);
      }),
    );
  });

  it('When no ranks are observed, then nothing is expected to sell', () => {
    expect(unitsFromRanks([], 'books', 1, 30)).toEqual({ low: 0, expected: 0, high: 0 });
  });
});
