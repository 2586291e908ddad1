// The rules createProduct, updateProduct and createProductIdentifier keep between a merchant's products, held for a
// whole world: a loaded workspace bundle's world is held to them before it is served (world-rules.ts).
import type { Collections } from '../collections.js';
import { keyOf, repeatedKeys } from '../repeated-keys.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { repeatedIdentifiers } from './rules/identifier-duplicates.js';
import { imageRefErrors } from './rules/image-refs.js';

/**
 * Products sharing a SKU within one merchant (skuErrors in handlers.ts), whose main or thumbnail image is not one of
 * their own images (updateProduct's imageRefErrors); identifiers repeated on one product.
 */
export function productRuleBreaches(store: Collections): WorldRuleBreach[] {
  const images: WorldRuleBreach[] = [];
  for (const p of store.products.all()) {
    if (p.main_image_id === null && p.thumbnail_image_id === null) continue;
    const own = new Set(store.product_images.where('product_id', p.id).map((image) => image.id));
    for (const [field, messages] of Object.entries(imageRefErrors(p, own))) {
      images.push({ collection: 'products', id: p.id, field, message: `Product ${p.id}: ${messages.join(' ')} It is no image of the product.` });
    }
  }
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
  return [...skus, ...images, ...identifiers];
}
