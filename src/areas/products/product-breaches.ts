// The rules createProduct, updateProduct and createProductIdentifier keep between a merchant's products, held for a
// whole world: a loaded workspace bundle's world is held to them before it is served (world-rules.ts).
import type { Collections } from '../collections.js';
import { keyOf, repeatedKeys } from '../repeated-keys.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { repeatedIdentifiers } from './rules/identifier-duplicates.js';

/** Products sharing a SKU within one merchant (skuErrors in handlers.ts), identifiers repeated on one product. */
export function productRuleBreaches(store: Collections): WorldRuleBreach[] {
  const skus = repeatedKeys(store.products.all(), (p) => keyOf(p.merchant_id, p.sku)).map(
    (p): WorldRuleBreach => ({
      collection: 'products',
      id: p.id,
      field: 'sku',
      message: `Product ${p.id} has the sku ${p.sku} of another product of merchant ${p.merchant_id}; a merchant's products have distinct skus.`,
    }),
  );
  const identifiers = repeatedIdentifiers(store.product_identifiers.all(), (i) => i.product_id).map(
    (i): WorldRuleBreach => ({
      collection: 'product_identifiers',
      id: i.id,
      field: 'value',
      message: `Product identifier ${i.id} repeats the ${i.type} ${i.value} product ${i.product_id} already has.`,
    }),
  );
  return [...skus, ...identifiers];
}
