import type { Faker } from '@faker-js/faker';
import { loadFixture } from '../../store/fixtures.js';
import type { AreaSeedContext } from '../collections.js';
import type { CatalogIdentifier, CatalogItemRecord } from './catalog-records.js';
import { generateCatalog, generateIdentifier } from './catalog-generator.js';
import { importSchedule } from './catalog-import-rules.js';
import { processDueImports } from './import-processing.js';
import type { MarketplaceRecord } from './records.js';

/** Distinct products in the seeded catalog; each is listed on the US marketplace and up to three others (~200 items). */
export const SEED_CATALOG_PRODUCTS = 80;

const DEMO_MERCHANT_ID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const RIVAL_MERCHANT_ID = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

/**
 * The marketplaces (fixture), the generated catalog, and a few finished imports of the demo and rival merchants,
 * processed as of refDate exactly as a request would process them later.
 */
export function seedMarketplaces(s: AreaSeedContext): void {
  const marketplaces = loadFixture<MarketplaceRecord[]>('marketplaces');
  for (const marketplace of marketplaces) s.store.marketplaces.insert({ ...marketplace });
  const catalog = generateCatalog(s.faker, marketplaces, { refDate: s.refDate, products: SEED_CATALOG_PRODUCTS });
  for (const item of catalog) s.store.catalog_items.insert(item);

  const merchants = [DEMO_MERCHANT_ID, DEMO_MERCHANT_ID, RIVAL_MERCHANT_ID].filter((id) => s.store.merchants.has(id));
  for (const merchantId of merchants) {
    const marketplace = s.faker.helpers.arrayElement(marketplaces.slice(0, 4));
    const createdAt = s.faker.date.between({ from: s.refDate.getTime() - 60 * 86_400_000, to: s.refDate.getTime() - 86_400_000 });
    const identifiers = seedImportIdentifiers(
      s.faker,
      catalog.filter((item) => item.marketplace_id === marketplace.id),
    );
    s.store.catalog_item_imports.insert({
      id: s.faker.string.uuid(),
      merchant_id: merchantId,
      marketplace_id: marketplace.id,
      identifiers,
      ...importSchedule(createdAt, identifiers.length),
      found_marketplace_catalog_item_ids: [],
      not_found_identifiers: [],
      processed: false,
      created_at: createdAt.toISOString(),
      updated_at: createdAt.toISOString(),
    });
  }
  processDueImports(s.store, s.refDate);
}

/** A realistic mix: identifiers the marketplace already lists, a valid new one, and a mistyped one (bad check digit). */
function seedImportIdentifiers(faker: Faker, listed: CatalogItemRecord[]): CatalogIdentifier[] {
  const known = faker.helpers.arrayElements(listed, { min: 1, max: 3 }).map((item) => ({ ...item.identifiers[0]! }));
  const fresh = generateIdentifier(faker, 'EAN');
  const upc = generateIdentifier(faker, 'UPC').value;
  const mistyped = { type: 'UPC' as const, value: upc.slice(0, 11) + String((Number(upc.at(-1)) + 1) % 10) };
  return [...known, fresh, mistyped];
}
