import { seedChannels } from '../areas/channels/seed.js';
import { seedForecasting } from '../areas/forecasting/seed.js';
import { seedMarketplaces } from '../areas/marketplaces/seed.js';
import { seedMerchants } from '../areas/merchants/seed.js';
import { seedProductsAndSourcing } from '../areas/sourcing/seed.js';
import { seedUsers } from '../areas/users/seed.js';
import { SEED_REF_DATE, areaFaker, type SeedContext } from './seed-context.js';
import type { Store } from './store.js';

/** The area seeders in dependency order; each area adds its records here, nothing else seeds. */
const seeders: [area: string, seed: (s: SeedContext) => void][] = [
  ['users', seedUsers],
  ['merchants', seedMerchants],
  ['marketplaces', seedMarketplaces],
  ['channels', seedChannels],
  ['products-sourcing', seedProductsAndSourcing],
  ['forecasting', seedForecasting],
];

/** Fills an empty store with the seeded world: the same seed gives the same records, byte for byte. */
export function seedStore(store: Store): void {
  store.apply(() => {
    for (const [area, seed] of seeders) {
      seed({ faker: areaFaker(store.seed, area), refDate: SEED_REF_DATE, store: store.collections, seed: store.seed });
    }
  });
}
