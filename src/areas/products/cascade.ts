import type { Collections } from '../collections.js';
import type { BesideStore } from '../context.js';

/**
 * Deletes a product with what only exists through it: its identifiers, its images and their uploaded files.
 * Supplier items that pointed at it stay, unlinked (`product_id` null, like a nullOnDelete foreign key: the item
 * itself did not change, so its updated_at does not move either).
 */
export function deleteProductCascade(store: Collections, productId: string, beside: BesideStore): void {
  for (const identifier of store.product_identifiers.where('product_id', productId)) store.product_identifiers.remove(identifier.id);
  for (const image of store.product_images.where('product_id', productId)) {
    store.product_images.remove(image.id);
    // Files are not transactional: removed last, after every check of the request has passed.
    if (image.storage_key) beside.uploads.remove(image.storage_key);
  }
  for (const item of store.supplier_items.where('product_id', productId)) store.supplier_items.update(item.id, { product_id: null });
  store.products.remove(productId);
}

/** Merchant deletion: every product of the merchant, with its cascade. */
export function deleteMerchantProducts(store: Collections, merchantId: string, beside: BesideStore): void {
  for (const product of store.products.where('merchant_id', merchantId)) deleteProductCascade(store, product.id, beside);
}
