// Writes the finds of ended scraping attempts into supplier items (rules in rules/found-items.ts). Called at the
// start of every operation that reads a supplier's items or scraping state, inside that request's transaction, so
// the clock alone moves scraping forward and a replay writes nothing new.
import type { Collections } from '../collections.js';
import type { ScrapingRequestRecord, SupplierRecord } from './records.js';
import { catchUpScraping } from './rules/found-items.js';
import type { SupplierCatalogues } from './rules/supplier-catalogue.js';
import { FREQUENCY_MS } from './rules/scraping-schedule.js';

/** Whether a request may have an ended attempt not applied yet: cheap, so requests with nothing new are skipped. */
function mayHaveNewAttempts(request: ScrapingRequestRecord, now: number): boolean {
  const total = request.frequency === 'once' ? 1 : request.max_attempts;
  if (request.applied_attempts >= total) return false;
  const period = request.frequency === 'once' ? 0 : FREQUENCY_MS[request.frequency];
  // The next unapplied attempt cannot end before its scheduled time.
  return now >= Date.parse(request.starts_at) + request.applied_attempts * period;
}

/** Applies every ended, unapplied attempt of the supplier's scraping requests (their finds come from `catalogues`). */
export function catchUpSupplier(store: Collections, catalogues: SupplierCatalogues, supplier: SupplierRecord, now: Date): void {
  const requests = store.scraping_requests.where('supplier_id', supplier.id).filter((r) => mayHaveNewAttempts(r, now.getTime()));
  if (requests.length === 0) return;
  const items = store.supplier_items.where('supplier_id', supplier.id);
  const result = catchUpScraping({ supplier, catalogue: catalogues.catalogue(supplier.id), requests, items, now });
  for (const item of result.inserts) store.supplier_items.insert(item);
  for (const identifier of result.identifier_inserts) store.supplier_item_identifiers.insert(identifier);
  for (const item of result.updates) store.supplier_items.update(item.id, item);
  for (const { request_id, applied_attempts } of result.applied) store.scraping_requests.update(request_id, { applied_attempts });
}

/** Catch-up for every supplier of a merchant (a merchant-wide list of supplier items). */
export function catchUpMerchant(store: Collections, catalogues: SupplierCatalogues, merchantId: string, now: Date): void {
  for (const supplier of store.suppliers.where('merchant_id', merchantId)) catchUpSupplier(store, catalogues, supplier, now);
}

/**
 * Catch-up for the supplier with this id when it is one of the merchant's: what an operation that writes a
 * supplier's items (or calculates from one) runs first, so it acts on the items as a read would show them. Otherwise
 * an attempt that ended before a delete would bring the item back, and one that ended before an edit would be lost.
 */
export function catchUpSupplierOf(store: Collections, catalogues: SupplierCatalogues, supplierId: string, merchantId: string, now: Date): void {
  const supplier = store.suppliers.get(supplierId);
  if (supplier?.merchant_id === merchantId) catchUpSupplier(store, catalogues, supplier, now);
}
