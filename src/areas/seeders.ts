import type { Seeder } from '../store/seed.js';
import { seedChannels } from './channels/seed.js';
import type { Collections } from './collections.js';
import { seedForecasting } from './forecasting/seed.js';
import { seedMarketplaces } from './marketplaces/seed.js';
import { seedMerchants } from './merchants/seed.js';
import { seedProductsAndSourcing } from './sourcing/seed.js';
import { seedSpares } from './spares/seed.js';
import { seedUsers } from './users/seed.js';

/**
 * Every area's seeder in dependency order; each area adds its records here, nothing else seeds. An area's name
 * picks its faker stream, so renaming one changes the seeded data.
 */
export const seeders: readonly Seeder<Collections>[] = [
  ['users', seedUsers],
  ['merchants', seedMerchants],
  ['marketplaces', seedMarketplaces],
  ['channels', seedChannels],
  ['products-sourcing', seedProductsAndSourcing],
  ['forecasting', seedForecasting],
  // Last, with fixed ids: the records the contract's destructive examples remove.
  ['spares', seedSpares],
];
