// The rules createSupplierItem, updateSupplierItem and createSupplierItemIdentifier keep, held for a whole world: a
// loaded workspace bundle's world is held to them before it is served (world-rules.ts).
import type { Collections } from '../collections.js';
import { repeatedIdentifiers } from '../products/rules/identifier-duplicates.js';
import { keyOf, repeatedKeys } from '../repeated-keys.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { duplicateQuantityErrors } from './rules/cost-tiers.js';
import { supplierItemRefErrors } from './rules/supplier-item-refs.js';

/**
 * Supplier items whose supplier or product is not of their merchant, that share a SKU within a supplier, repeat
 * a cost tier's minimum_order_quantity or another tier's id; identifiers repeated on one item.
 */
export function supplierItemRuleBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  const breach = (id: string, field: string, message: string) => breaches.push({ collection: 'supplier_items', id, field, message });
  const lookup = {
    supplierMerchant: (id: string) => store.suppliers.get(id)?.merchant_id,
    productMerchant: (id: string) => store.products.get(id)?.merchant_id,
  };
  for (const item of store.supplier_items.all()) {
    const errors = { ...supplierItemRefErrors(item.merchant_id, item, lookup), ...duplicateQuantityErrors(item.costs) };
    for (const [field, messages] of Object.entries(errors)) {
      breach(item.id, field, `Supplier item ${item.id} of merchant ${item.merchant_id}: ${field}: ${messages.join(' ')}`);
    }
  }
  for (const item of repeatedKeys(store.supplier_items.all(), (i) => (i.sku === null ? undefined : keyOf(i.supplier_id, i.sku)))) {
    breach(
      item.id,
      'sku',
      `Supplier item ${item.id} has the sku ${item.sku} of another item of supplier ${item.supplier_id}; a supplier's items have distinct skus.`,
    );
  }
  // A forecast names a tier by its id alone (supplier_item_cost_id): tier ids are the world's, each once.
  const tiers = store.supplier_items.all().flatMap((item) => item.costs.map((tier) => ({ item, tier })));
  for (const { item, tier } of repeatedKeys(tiers, ({ tier }) => tier.id)) {
    breach(item.id, 'costs', `Supplier item ${item.id} has cost tier ${tier.id}, the id of another tier; each tier has an id of its own.`);
  }
  for (const i of repeatedIdentifiers(store.supplier_item_identifiers.all(), (i) => i.supplier_item_id)) {
    breaches.push({
      collection: 'supplier_item_identifiers',
      id: i.id,
      field: 'value',
      message: `Supplier item identifier ${i.id} repeats the ${i.type} ${i.value} supplier item ${i.supplier_item_id} already has.`,
    });
  }
  return breaches;
}
