import type { BesideStore } from '../context.js';
import type { Collections } from '../collections.js';
import { deleteMerchantChannels } from '../channels/cascade.js';
import { deleteMerchantForecasting } from '../forecasting/cascade.js';
import { deleteMerchantMarketplaces } from '../marketplaces/cascade.js';
import { deleteMerchantProducts } from '../products/cascade.js';
import { deleteMerchantSourcing } from '../sourcing/cascade.js';

/** Removes what one area keeps for a merchant; each area that owns merchant records exports one. */
export type MerchantCleanup = (store: Collections, merchantId: string, beside: BesideStore) => void;

/**
 * What deleting a merchant takes with it, area by area, listed here explicitly so the compiler sees every area
 * that takes part and a merchant never leaves records pointing at it.
 */
const cleanups: MerchantCleanup[] = [
  deleteMerchantSourcing,
  deleteMerchantProducts,
  deleteMerchantChannels,
  deleteMerchantMarketplaces,
  deleteMerchantForecasting,
];

export function deleteMerchantCascade(store: Collections, merchantId: string, beside: BesideStore): void {
  for (const cleanup of cleanups) cleanup(store, merchantId, beside);
  for (const membership of store.memberships.where('merchant_id', merchantId)) store.memberships.remove(membership.id);
  store.merchants.remove(merchantId);
}
