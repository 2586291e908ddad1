// The rules createSupplierItem, updateSupplierItem and createSupplierItemIdentifier keep, held for a whole world: a
// loaded workspace bundle's world is held to them before it is served (world-rules.ts). Each is a pass of its own,
// so the load pauses between them.
import type { Collections } from '../collections.js';
import { repeatedIdentifiers } from '../products/rules/identifier-duplicates.js';
import { keyOf, repeatedKeys } from '../repeated-keys.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { duplicateQuantityErrors } from './rules/cost-tiers.js';
import { supplierItemRefErrors } from './rules/supplier-item-refs.js';

const itemBreach = (id: string, field: string, message: string): WorldRuleBreach => ({ collection: 'supplier_items', id, field, message });

/** Supplier items whose supplier or product is not of their merchant, or that repeat a cost tier's minimum_order_quantity. */
export function supplierItemRefBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  const lookup = {
    supplierMerchant: (id: string) => store.suppliers.get(id)?.merchant_id,
    productMerchant: (id: string) => store.products.get(id)?.merchant_id,
  };
  for (const item of store.supplier_items.all()) {
    for (const errors of [supplierItemRefErrors(item.merchant_id, item, lookup), duplicateQuantityErrors(item.costs)]) {
      for (const field in errors) {
        breaches.push(itemBreach(item.id, field, `Supplier item ${item.id} of merchant ${item.merchant_id}: ${field}: ${errors[field]!.join(' ')}`));
      }
    }
  }
  return breaches;
}

/** Supplier items sharing a SKU within a supplier. */
export function supplierSkuBreaches(store: Collections): WorldRuleBreach[] {
  return repeatedKeys(store.supplier_items.all(), (i) => (i.sku === null ? undefined : keyOf(i.supplier_id, i.sku))).map((item) =>
    itemBreach(
      item.id,
      'sku',
      `Supplier item ${item.id} has the sku ${item.sku} of another item of supplier ${item.supplier_id}; a supplier's items have distinct skus.`,
    ),
  );
}

/** Cost tiers with the id of another: a forecast names a tier by its id alone (supplier_item_cost_id). */
export function costTierIdBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  const ids = new Set<string>();
  for (const item of store.supplier_items.all()) {
    for (const tier of item.costs) {
      if (ids.has(tier.id))
        breaches.push(
          itemBreach(item.id, 'costs', `Supplier item ${item.id} has cost tier ${tier.id}, the id of another tier; each tier has an id of its own.`),
        );
      ids.add(tier.id);
    }
  }
  return breaches;
}

/** Identifiers repeated on one supplier item. */
export function supplierItemIdentifierBreaches(store: Collections): WorldRuleBreach[] {
  return repeatedIdentifiers(store.supplier_item_identifiers.all(), (i) => i.supplier_item_id).map((i) => ({
    collection: 'supplier_item_identifiers',
    id: i.id,
    field: 'value',
    message: `Supplier item identifier ${i.id} repeats the ${i.type} ${i.value} supplier item ${i.supplier_item_id} already has.`,
  }));
}
