import { createRetailer, createStorePort, type Retailer, type RetailerStatePort } from '../../retailer/index.js';
import { SEED_REF_DATE } from '../../store/seed-context.js';
import type { Collections } from '../collections.js';
import type { World } from '../../world.js';
import { resourceKind } from '../../world-resources.js';

// One simulated retailer per world (its rate buckets and generated-data cache live in memory), dropped when the
// world is reset or deleted, so a reset world is not still throttled.
const RETAILER = resourceKind<Retailer>('retailer');

/** The world's simulated retailer: its generated data follows the world seed and the channel id. */
export const retailerOf = (world: World): Retailer => world.resources.of(RETAILER, () => createRetailer({ seed: world.store.seed, refDate: SEED_REF_DATE }));

/** The retailer's state port over the world's collections, so its writes join the request's transaction. */
export const retailerPort = (store: Collections): RetailerStatePort => createStorePort(store);
