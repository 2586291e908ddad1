import type { Collections } from '../../store/store.js';

/**
 * What deleting a merchant takes with it, area by area. Each area that owns merchant records registers its
 * cleanup here, so a merchant never leaves records pointing at it.
 */
export type MerchantCleanup = (store: Collections, merchantId: string) => void;

const cleanups: MerchantCleanup[] = [];

/** Areas call this at module load to take part in merchant deletion. */
export function onMerchantDeleted(cleanup: MerchantCleanup): void {
  cleanups.push(cleanup);
}

export function deleteMerchantCascade(store: Collections, merchantId: string): void {
  for (const cleanup of cleanups) cleanup(store, merchantId);
  for (const membership of store.memberships.where('merchant_id', merchantId)) store.memberships.remove(membership.id);
  store.merchants.remove(merchantId);
}
