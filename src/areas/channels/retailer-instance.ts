import { createRetailer, createStorePort, type RetailerStatePort } from '../../retailer/index.js';
import { SEED_REF_DATE } from '../../store/seed-context.js';
import type { Collections } from '../../store/store.js';
import { perWorld } from '../../world-resources.js';

// One simulated retailer per world (its rate buckets and generated-data cache live in memory), dropped when the
// world is reset or deleted, so a reset world is not still throttled.
const retailers = perWorld((seed: number) => createRetailer({ seed, refDate: SEED_REF_DATE }));

/** The world's simulated retailer: its generated data follows the world seed and the channel id. */
export const retailerOf = (store: Collections, seed: number) => retailers.of(store, seed);

/** Drops the in-memory state (cached world, rate buckets) the world's retailer keeps for a deleted channel. */
export function forgetRetailerChannel(store: Collections, channelId: string): void {
  retailers.peek(store)?.forgetChannel(channelId);
}

/** The retailer's state port over the world's collections, so its writes join the request's transaction. */
export const retailerPort = (store: Collections): RetailerStatePort => createStorePort(store);
