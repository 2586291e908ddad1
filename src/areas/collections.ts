// Every area's collections, listed once: the store is generic and knows no area, so a world's store is built
// from this list, and its type is what handlers reach as `ctx.store`.
import type { SeedContext } from '../store/seed-context.js';
import type { CollectionsOf } from '../store/store.js';
import { channelCollections } from './channels/records.js';
import { forecastingCollections } from './forecasting/records.js';
import { marketplaceCollections } from './marketplaces/records.js';
import { merchantCollections } from './merchants/records.js';
import { productCollections } from './products/records.js';
import { sourcingCollections } from './sourcing/records.js';
import { userCollections } from './users/records.js';

/**
 * Every collection of a world. The order here is the order of the data file, and the order in which a merchant's
 * records are deleted does not depend on it.
 */
export const collectionDefs = {
  ...userCollections,
  ...merchantCollections,
  ...marketplaceCollections,
  ...channelCollections,
  ...productCollections,
  ...sourcingCollections,
  ...forecastingCollections,
};

/** Every collection of a world, by name: what handlers reach as `ctx.store`. */
export type Collections = CollectionsOf<typeof collectionDefs>;

/** What an area's seeder gets: its own seeded faker, the fixed reference date and the world's collections. */
export type AreaSeedContext = SeedContext<Collections>;

// The world layer types every world's store by this list without importing an area (src/world.ts, WorldTypes).
declare module '../world.js' {
  interface WorldTypes {
    defs: typeof collectionDefs;
  }
}
