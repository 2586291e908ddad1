// listProducts filters: q is a case-insensitive substring of title or SKU, sku an exact (case-sensitive) match.
import type { ProductRecord } from '../record-types.js';

/** Whether a product passes listProducts' `q` and `sku` filters (absent filters pass everything). */
export function matchesProductFilters(product: ProductRecord, filters: { q?: string; sku?: string }): boolean {
  if (filters.sku !== undefined && product.sku !== filters.sku) return false;
  if (filters.q !== undefined && filters.q !== '') {
    const needle = filters.q.toLowerCase();
    if (!product.title.toLowerCase().includes(needle) && !product.sku.toLowerCase().includes(needle)) return false;
  }
  return true;
}

/** The products that pass the filters, in their order: the list itself when none is asked for (nothing copied). */
export function filterProducts(products: readonly ProductRecord[], filters: { q?: string; sku?: string }): readonly ProductRecord[] {
  const filtered = filters.sku !== undefined || (filters.q !== undefined && filters.q !== '');
  return filtered ? products.filter((p) => matchesProductFilters(p, filters)) : products;
}
