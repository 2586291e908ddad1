import { SEED_REF_DATE, areaFaker, type SeedContext } from './seed-context.js';
import type { CollectionDefs, CollectionsOf, Store } from './store.js';

/** One area's seeding step; its name picks the area's own faker stream. */
export type Seeder<C> = readonly [area: string, seed: (s: SeedContext<C>) => void];

/**
 * Fills an empty store with the seeded world, running the seeders in the order given (dependencies first): the
 * same seed gives the same records, byte for byte.
 */
export function seedStore<D extends CollectionDefs>(store: Store<D>, seeders: readonly Seeder<CollectionsOf<D>>[]): void {
  store.apply(() => {
    for (const [area, seed] of seeders) {
      seed({ faker: areaFaker(store.seed, area), refDate: SEED_REF_DATE, store: store.collections, seed: store.seed });
    }
  });
}
