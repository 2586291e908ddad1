import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { duplicateQuantityErrors, mergeCostTiers } from '../../src/areas/sourcing/rules/cost-tiers.js';
import type { CostTierRecord } from '../../src/areas/sourcing/record-types.js';

const usd = (value: number) => ({ value, currency: 'USD' });
const existing: CostTierRecord[] = [
  { id: 'tier-1', minimum_order_quantity: 1, cost: usd(10) },
  { id: 'tier-10', minimum_order_quantity: 10, cost: usd(9) },
  { id: 'tier-50', minimum_order_quantity: 50, cost: usd(8) },
];
const counter = () => {
  let n = 0;
  return () => `new-${++n}`;
};

describe('mergeCostTiers', () => {
  it('When tiers are created (no existing tiers), then each gets a new id and they come back ordered by quantity', () => {
    const r = mergeCostTiers(
      [],
      [
        { minimum_order_quantity: 24, cost: usd(5) },
        { minimum_order_quantity: 1, cost: usd(6) },
      ],
      counter(),
    );
    expect(r).toEqual({
      ok: true,
      merge: {
        costs: [
          { id: 'new-2', minimum_order_quantity: 1, cost: usd(6) },
          { id: 'new-1', minimum_order_quantity: 24, cost: usd(5) },
        ],
        kept_ids: [],
        added_ids: ['new-1', 'new-2'],
        removed_ids: [],
      },
    });
  });

  it('When the same tiers are sent back without ids, then every id is kept (matched by minimum_order_quantity)', () => {
    const r = mergeCostTiers(
      existing,
      existing.map(({ minimum_order_quantity, cost }) => ({ minimum_order_quantity, cost: usd(cost.value + 1) })),
      counter(),
    );
    expect(r.ok && r.merge.costs.map((t) => t.id)).toEqual(['tier-1', 'tier-10', 'tier-50']);
    expect(r.ok && r.merge.costs.map((t) => t.cost.value)).toEqual([11, 10, 9]);
    expect(r.ok && r.merge.removed_ids).toEqual([]);
  });

  it('When a tier is sent with its id and a new quantity, then it keeps the id and the quantity changes', () => {
    const r = mergeCostTiers(existing, [{ id: 'tier-10', minimum_order_quantity: 12, cost: usd(9) }], counter());
    expect(r.ok && r.merge.costs).toEqual([{ id: 'tier-10', minimum_order_quantity: 12, cost: usd(9) }]);
    expect(r.ok && r.merge.removed_ids).toEqual(['tier-1', 'tier-50']);
  });

  it('When an id is claimed explicitly, then a quantity match cannot take the same id', () => {
    // tier-1 moves to quantity 5; the new quantity-1 tier must not reuse tier-1.
    const r = mergeCostTiers(
      existing,
      [
        { id: 'tier-1', minimum_order_quantity: 5, cost: usd(10) },
        { minimum_order_quantity: 1, cost: usd(12) },
      ],
      counter(),
    );
    expect(r.ok && r.merge.costs).toEqual([
      { id: 'new-1', minimum_order_quantity: 1, cost: usd(12) },
      { id: 'tier-1', minimum_order_quantity: 5, cost: usd(10) },
    ]);
    expect(r.ok && r.merge.added_ids).toEqual(['new-1']);
  });

  it('When tiers are left out, then they are removed and reported so their forecasts can go too', () => {
    const r = mergeCostTiers(existing, [{ minimum_order_quantity: 10, cost: usd(9) }], counter());
    expect(r.ok && r.merge.removed_ids).toEqual(['tier-1', 'tier-50']);
    expect(r.ok && r.merge.kept_ids).toEqual(['tier-10']);
  });

  it("When an id is not one of the item's tiers, then it answers a costs.N.id error", () => {
    const r = mergeCostTiers(
      existing,
      [
        { minimum_order_quantity: 1, cost: usd(1) },
        { id: 'elsewhere', minimum_order_quantity: 2, cost: usd(1) },
      ],
      counter(),
    );
    expect(r).toEqual({ ok: false, errors: { 'costs.1.id': ['The selected costs.1.id is invalid.'] } });
  });

  it('When an id is sent on creation, then it answers a costs.N.id error', () => {
    const r = mergeCostTiers([], [{ id: 'tier-1', minimum_order_quantity: 1, cost: usd(1) }], counter());
    expect(r.ok).toBe(false);
    expect(!r.ok && Object.keys(r.errors)).toEqual(['costs.0.id']);
  });

  it('When the same id is sent twice, then the second answers a costs.N.id error', () => {
    const r = mergeCostTiers(
      existing,
      [
        { id: 'tier-1', minimum_order_quantity: 1, cost: usd(1) },
        { id: 'tier-1', minimum_order_quantity: 2, cost: usd(1) },
      ],
      counter(),
    );
    expect(!r.ok && r.errors).toEqual({ 'costs.1.id': ['The costs.1.id field has a duplicate value.'] });
  });

  it('When two tiers share a minimum_order_quantity, then the later one answers a costs.N.minimum_order_quantity error', () => {
    const r = mergeCostTiers(
      existing,
      [
        { minimum_order_quantity: 1, cost: usd(1) },
        { minimum_order_quantity: 5, cost: usd(1) },
        { minimum_order_quantity: 1, cost: usd(2) },
      ],
      counter(),
    );
    expect(!r.ok && r.errors).toEqual({
      'costs.2.minimum_order_quantity': ['The costs.2.minimum_order_quantity field has a duplicate value.'],
    });
  });

  it('When any valid list is merged, then ids are unique, kept + removed cover the old tiers, and quantities ascend', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (quantities, sendIds) => {
          const sent = quantities.map((q, i) => {
            const old = existing[i];
            return sendIds[i] && old ? { id: old.id, minimum_order_quantity: q, cost: usd(1) } : { minimum_order_quantity: q, cost: usd(1) };
          });
          const r = mergeCostTiers(existing, sent, counter());
          if (!r.ok) return false;
          const ids = r.merge.costs.map((t) => t.id);
          const oldIds = existing.map((t) => t.id);
          return (
            new Set(ids).size === ids.length &&
            [...r.merge.kept_ids, ...r.merge.removed_ids].sort().join() === oldIds.sort().join() &&
            r.merge.costs.every((t, i, a) => i === 0 || a[i - 1]!.minimum_order_quantity < t.minimum_order_quantity)
          );
        },
      ),
    );
  });
});

describe('duplicateQuantityErrors', () => {
  it('When quantities are distinct, then there are no errors', () => {
    expect(duplicateQuantityErrors([{ minimum_order_quantity: 1 }, { minimum_order_quantity: 2 }])).toEqual({});
  });
});
