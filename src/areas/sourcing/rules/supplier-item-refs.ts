// supplier_id and product_id on a supplier item must name records of the item's merchant. Both "does not exist"
// and "belongs to another merchant" answer the same 422, so the answer never reveals another merchant's records.
import type { FieldErrors } from '../record-types.js';

/** 422 field errors for references that do not resolve to a record of `merchantId` (null product_id passes). */
export function supplierItemRefErrors(
  merchantId: string,
  refs: { supplier_id?: string; product_id?: string | null },
  lookup: {
    supplierMerchant: (id: string) => string | undefined;
    productMerchant: (id: string) => string | undefined;
  },
): FieldErrors {
  const errors: FieldErrors = {};
  if (refs.supplier_id !== undefined && lookup.supplierMerchant(refs.supplier_id) !== merchantId) {
    errors.supplier_id = ['The selected supplier id is invalid.'];
  }
  if (refs.product_id !== undefined && refs.product_id !== null && lookup.productMerchant(refs.product_id) !== merchantId) {
    errors.product_id = ['The selected product id is invalid.'];
  }
  return errors;
}

/** 422 `sku` error when another item of the same supplier already uses this non-null SKU. */
export function supplierSkuErrors(
  sku: string | null | undefined,
  itemsOfSupplier: readonly { id: string; sku: string | null }[],
  selfId?: string,
): FieldErrors {
  if (sku === null || sku === undefined) return {};
  return itemsOfSupplier.some((i) => i.sku === sku && i.id !== selfId) ? { sku: ['The sku has already been taken.'] } : {};
}
