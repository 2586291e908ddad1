// A seeded catalog for pure tests: the same construction wave 2's seed will use (faker seeded by the caller).
import { Faker, en } from '@faker-js/faker';
import marketplaces from '../../../fixtures/marketplaces.json' with { type: 'json' };
import { generateCatalog } from '../../../src/areas/marketplaces/catalog-generator.js';
import type { CatalogItemRecord, MarketplaceRecord } from '../../../src/areas/marketplaces/catalog-records.js';

export const REF_DATE = new Date('2024-09-01T00:00:00.000Z');
export const MARKETPLACES = marketplaces as MarketplaceRecord[];

/** The catalog for a seed (60 products, about 150 listings). */
export function catalogFor(seed = 20240901, products = 60): CatalogItemRecord[] {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  return generateCatalog(faker, MARKETPLACES, { refDate: REF_DATE, products });
}

/** The marketplace of an item. */
export function marketplaceOf(item: CatalogItemRecord): MarketplaceRecord {
  return MARKETPLACES.find((m) => m.id === item.marketplace_id)!;
}
