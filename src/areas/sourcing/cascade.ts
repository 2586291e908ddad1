import type { Collections } from '../collections.js';
import { deleteForecastsOfCostTiers } from '../forecasting/cascade.js';

/**
 * Removes the opportunity forecasts calculated on these cost tiers (`supplier_item_cost_id`), so no forecast is left
 * pointing at a tier that no longer exists. Every place that removes tiers calls it: PUT supplier item (removed
 * tiers), supplier item and supplier deletion, merchant deletion.
 */
export function deleteForecastsForCostIds(store: Collections, costIds: readonly string[]): void {
  deleteForecastsOfCostTiers(store, costIds);
}

/** Deletes a supplier item with its identifiers and the forecasts on its tiers. */
export function deleteSupplierItemCascade(store: Collections, itemId: string): void {
  const item = store.supplier_items.get(itemId);
  if (!item) return;
  deleteForecastsForCostIds(
    store,
    item.costs.map((tier) => tier.id),
  );
  for (const identifier of store.supplier_item_identifiers.where('supplier_item_id', itemId)) {
    store.supplier_item_identifiers.remove(identifier.id);
  }
  store.supplier_items.remove(itemId);
}

/**
 * Deletes a supplier with everything that only exists through it: its supplier items (with their identifiers and
 * forecasts) and its scraping requests (attempts are derived from requests, so they go with them).
 */
export function deleteSupplierCascade(store: Collections, supplierId: string): void {
  for (const item of store.supplier_items.where('supplier_id', supplierId)) deleteSupplierItemCascade(store, item.id);
  for (const request of store.scraping_requests.where('supplier_id', supplierId)) store.scraping_requests.remove(request.id);
  store.suppliers.remove(supplierId);
}

/** Merchant deletion: every supplier of the merchant with its cascade, then any item or request left under the merchant. */
export function deleteMerchantSourcing(store: Collections, merchantId: string): void {
  for (const supplier of store.suppliers.where('merchant_id', merchantId)) deleteSupplierCascade(store, supplier.id);
  for (const item of store.supplier_items.where('merchant_id', merchantId)) deleteSupplierItemCascade(store, item.id);
  for (const request of store.scraping_requests.where('merchant_id', merchantId)) store.scraping_requests.remove(request.id);
}
