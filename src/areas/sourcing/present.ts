import type { ScrapingRequestRecord, SupplierItemIdentifierRecord, SupplierItemRecord, SupplierRecord } from './records.js';
import type { Collections } from '../collections.js';
import { requestState } from './rules/scraping-schedule.js';

/** A supplier as the API shows it (the record has exactly the contract's fields). */
export function presentSupplier(supplier: SupplierRecord) {
  const { id, merchant_id, name, default_currency, created_at, updated_at } = supplier;
  return { id, merchant_id, name, default_currency, created_at, updated_at };
}

/** A supplier item identifier as the API shows it. */
export function presentSupplierItemIdentifier(identifier: SupplierItemIdentifierRecord) {
  const { id, supplier_item_id, type, value, created_at, updated_at } = identifier;
  return { id, supplier_item_id, type, value, created_at, updated_at };
}

/** A supplier item with its current identifiers (in the order they were added) and its tiers as stored (by quantity). */
export function presentSupplierItem(item: SupplierItemRecord, store: Collections) {
  return {
    id: item.id,
    merchant_id: item.merchant_id,
    supplier_id: item.supplier_id,
    sku: item.sku,
    description: item.description,
    identifiers: store.supplier_item_identifiers.where('supplier_item_id', item.id).map(presentSupplierItemIdentifier),
    product_id: item.product_id,
    costs: item.costs.map((tier) => ({
      id: tier.id,
      minimum_order_quantity: tier.minimum_order_quantity,
      cost: { value: tier.cost.value, currency: tier.cost.currency },
    })),
    // A world persisted before the field existed has no stock on its items: unknown.
    stock_quantity: item.stock_quantity ?? null,
    created_at: item.created_at,
    updated_at: item.updated_at,
  };
}

/** A scraping request without its internal counter, with its status and counters derived from the clock. */
export function presentScrapingRequest(request: ScrapingRequestRecord, now: Date) {
  return {
    id: request.id,
    merchant_id: request.merchant_id,
    supplier_id: request.supplier_id,
    source_url: request.source_url,
    frequency: request.frequency,
    starts_at: request.starts_at,
    max_attempts: request.max_attempts,
    ...requestState(request, now),
    created_at: request.created_at,
    updated_at: request.updated_at,
  };
}
