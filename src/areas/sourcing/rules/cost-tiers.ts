// The cost-tier rules a contract cannot express: distinct minimum_order_quantity within an item, and which tier ids
// survive a PUT. Tier ids matter because opportunity forecasts refer to them as supplier_item_cost_id.
import type { components } from '../../../contract/document/generated.js';
import type { CostTierRecord, FieldErrors } from '../record-types.js';

/** A tier as a client sends it (CostTierInput); `id` only makes sense on update. */
export type CostTierInput = components['schemas']['CostTierInput'];

/** The outcome of merging: the item's new tiers, and which ids were kept, added and removed (forecasts of removed ids go too). */
export interface CostTierMerge {
  costs: CostTierRecord[];
  kept_ids: string[];
  added_ids: string[];
  removed_ids: string[];
}

/**
 * The most tiers an item has: the contract's bound on `costs` (maxItems of SupplierItemCreate and SupplierItemUpdate),
 * which scraping keeps too, so every item's GET body is a valid PUT body and every world exports as a bundle.
 */
export const MAX_COST_TIERS = 20;

/** Either the merge or Laravel-style field errors to answer 422 with. */
export type CostTierMergeResult = { ok: true; merge: CostTierMerge } | { ok: false; errors: FieldErrors };

/** Field errors for tiers that repeat a minimum_order_quantity already used by an earlier tier of the same list. */
export function duplicateQuantityErrors(tiers: readonly { minimum_order_quantity: number }[]): FieldErrors {
  const errors: FieldErrors = {};
  const seen = new Set<number>();
  tiers.forEach((tier, index) => {
    if (seen.has(tier.minimum_order_quantity)) {
      errors[`costs.${index}.minimum_order_quantity`] = [`The costs.${index}.minimum_order_quantity field has a duplicate value.`];
    }
    seen.add(tier.minimum_order_quantity);
  });
  return errors;
}

/** Tiers in the order the API presents them: by minimum_order_quantity. */
export function sortTiers<T extends { minimum_order_quantity: number }>(tiers: readonly T[]): T[] {
  return [...tiers].sort((a, b) => a.minimum_order_quantity - b.minimum_order_quantity);
}

/**
 * Merges the tiers a client sent with the item's current tiers (pass [] on creation):
 * 1. a tier sent with an `id` keeps it; the id must be one of the item's tiers and not repeated (else `costs.N.id`);
 * 2. a tier sent without `id` whose minimum_order_quantity equals an existing tier's (one not claimed by id in step 1)
 *    keeps that tier's id, so resending the same list unchanged keeps every id;
 * 3. any other tier gets `newId()`;
 * 4. existing tiers matched by neither rule are removed.
 * Duplicate minimum_order_quantity values answer `costs.N.minimum_order_quantity` errors.
 */
export function mergeCostTiers(existing: readonly CostTierRecord[], incoming: readonly CostTierInput[], newId: () => string): CostTierMergeResult {
  const errors: FieldErrors = duplicateQuantityErrors(incoming);
  const existingById = new Map(existing.map((t) => [t.id, t]));
  const claimed = new Set<string>();
  incoming.forEach((tier, index) => {
    if (tier.id === undefined) return;
    if (!existingById.has(tier.id)) {
      errors[`costs.${index}.id`] = [`The selected costs.${index}.id is invalid.`];
    } else if (claimed.has(tier.id)) {
      errors[`costs.${index}.id`] = [`The costs.${index}.id field has a duplicate value.`];
    }
    claimed.add(tier.id);
  });
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  // Step 2 only looks at tiers no incoming tier claimed by id, so an explicit claim always wins over a quantity match.
  const unclaimedByQuantity = new Map(existing.filter((t) => !claimed.has(t.id)).map((t) => [t.minimum_order_quantity, t.id]));
  const kept: string[] = [];
  const added: string[] = [];
  const costs = incoming.map((tier): CostTierRecord => {
    let id = tier.id;
    if (id === undefined) {
      id = unclaimedByQuantity.get(tier.minimum_order_quantity);
      if (id !== undefined) unclaimedByQuantity.delete(tier.minimum_order_quantity);
    }
    if (id === undefined) {
      id = newId();
      added.push(id);
    } else {
      kept.push(id);
    }
    return {
      id,
      minimum_order_quantity: tier.minimum_order_quantity,
      cost: { value: tier.cost.value, currency: tier.cost.currency },
    };
  });
  const keptSet = new Set(kept);
  return {
    ok: true,
    merge: {
      costs: sortTiers(costs),
      kept_ids: kept,
      added_ids: added,
      removed_ids: existing.filter((t) => !keptSet.has(t.id)).map((t) => t.id),
    },
  };
}
