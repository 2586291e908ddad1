import { createRetailer, createStorePort, type Retailer, type RetailerStatePort } from '../../retailer/index.js';
import { SEED_REF_DATE } from '../../store/seed-context.js';
import type { Collections } from '../../store/store.js';

// One simulated retailer per world, found through the world's collections object (stable for the world's life),
// so the merchant cascade, which only gets the collections, can reach it too.
const retailers = new WeakMap<Collections, Retailer>();

/** The world's simulated retailer: its generated data follows the world seed and the channel id. */
export function retailerOf(store: Collections, seed: number): Retailer {
  let retailer = retailers.get(store);
  if (!retailer) retailers.set(store, (retailer = createRetailer({ seed, refDate: SEED_REF_DATE })));
  return retailer;
}

/** Drops the in-memory state (cached world, rate buckets) the world's retailer keeps for a deleted channel. */
export function forgetRetailerChannel(store: Collections, channelId: string): void {
  retailers.get(store)?.forgetChannel(channelId);
}

/** The retailer's state port over the world's collections, so its writes join the request's transaction. */
export const retailerPort = (store: Collections): RetailerStatePort => createStorePort(store);
