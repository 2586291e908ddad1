// Generates the seeded catalog. Only static attributes and a few simulation parameters come from faker; every
// time series is derived later from item.simulation (see price-series, sales-rank-series, current-offers), which is
// why the catalog stays coherent and extends as the sandbox clock moves.

import type { Faker } from '@faker-js/faker';
import { MAX_SELLER_COUNT, type CatalogIdentifier, type CatalogImageRecord, type CatalogItemRecord, type MarketplaceRecord } from './catalog-records.js';
import { CATEGORIES, CATEGORY_CODES, type CategoryCode } from './categories.js';
import { DAY_MS } from './calendar.js';
import { exchangeRate } from './currencies.js';
import { isbn10CheckChar, withGs1Check } from './identifier-codes.js';

/** Where image URLs point: a reserved `.example` host, so nothing real is ever fetched by accident. */
export const CATALOG_IMAGE_HOST = 'https://images.catalog.sandbox.example';

/** The marketplace-independent facts of a product; one product is listed on several marketplaces. */
export type ProductTemplate = Pick<
  CatalogItemRecord,
  'external_id' | 'title' | 'brand' | 'category' | 'subcategory' | 'identifiers' | 'size_tier' | 'is_brand_protected' | 'requires_compliance_documentation'
> & {
  price_usd: number;
  /** Popularity on a marketplace of scale 1; each listing draws its own rank around it. */
  base_sales_rank: number;
};

const BRAND_HEAD = ['Bright', 'North', 'Blue', 'Oak', 'Silver', 'Nova', 'Terra', 'Pure', 'Swift', 'Urban', 'Alpine', 'Coast'];
const BRAND_TAIL = ['field', 'wave', 'line', 'craft', 'peak', 'works', 'nest', 'lab', 'ridge', 'stone'];

function logUniform(faker: Faker, min: number, max: number): number {
  return Math.exp(faker.number.float({ min: Math.log(min), max: Math.log(max) }));
}

/** A valid identifier of the given type (valid check digits, so imports of it are "found"). */
export function generateIdentifier(faker: Faker, type: CatalogIdentifier['type']): CatalogIdentifier {
  switch (type) {
    case 'UPC':
      return { type, value: withGs1Check(faker.string.numeric({ length: 11 })) };
    case 'EAN':
      return { type, value: withGs1Check(faker.helpers.arrayElement(['40', '50', '76', '80', '87']) + faker.string.numeric({ length: 10 })) };
    case 'GTIN':
      return { type, value: withGs1Check(`1${faker.string.numeric({ length: 12 })}`) };
    case 'ISBN': {
      if (faker.datatype.boolean({ probability: 0.8 })) {
        return { type, value: withGs1Check(`978${faker.string.numeric({ length: 9 })}`) };
      }
      const body = faker.string.numeric({ length: 9 });
      return { type, value: body + isbn10CheckChar(body) };
    }
  }
}

function identifiersFor(faker: Faker, category: CategoryCode): CatalogIdentifier[] {
  if (category === 'books') return [generateIdentifier(faker, 'ISBN')];
  const ids = [generateIdentifier(faker, faker.helpers.arrayElement(['UPC', 'EAN'] as const))];
  if (faker.datatype.boolean({ probability: 0.3 })) ids.push(generateIdentifier(faker, 'GTIN'));
  return ids;
}

/** A new product. `identifier` pins one identifier (an import asking for it) and the category it implies. */
export function generateProductTemplate(faker: Faker, identifier?: CatalogIdentifier): ProductTemplate {
  const category: CategoryCode =
    identifier?.type === 'ISBN' ? 'books' : faker.helpers.arrayElement(CATEGORY_CODES.filter((c) => c !== 'books' || identifier === undefined));
  const info = CATEGORIES[category];
  const sub = faker.helpers.arrayElement(info.subcategories);
  const brand = faker.helpers.arrayElement(BRAND_HEAD) + faker.helpers.arrayElement(BRAND_TAIL);
  const noun = faker.helpers.arrayElement(sub.nouns);
  const colour = faker.color.human();
  const identifiers = identifiersFor(faker, category);
  if (identifier) identifiers.splice(0, identifiers.length, { type: identifier.type, value: identifier.value });
  const isBook = category === 'books';
  return {
    external_id: isBook && identifiers[0]!.value.length === 10 ? identifiers[0]!.value : `B0${faker.string.alphanumeric({ length: 8, casing: 'upper' })}`,
    title: isBook
      ? `${noun}: ${faker.word.adjective({ length: { min: 4, max: 9 } })} recipes by ${faker.person.lastName()}`
      : `${brand} ${faker.commerce.productAdjective()} ${noun}, ${colour[0]!.toUpperCase()}${colour.slice(1)}`,
    brand: isBook ? faker.company.name() : brand,
    category,
    subcategory: sub.name,
    identifiers,
    price_usd: Math.round(logUniform(faker, info.priceUsd[0], info.priceUsd[1]) * 100) / 100,
    size_tier: faker.helpers.weightedArrayElement([
      { weight: 60, value: 'small_standard' as const },
      { weight: 32, value: 'large_standard' as const },
      { weight: 8, value: 'oversize' as const },
    ]),
    is_brand_protected: faker.datatype.boolean({ probability: 0.2 }),
    requires_compliance_documentation: faker.datatype.boolean({ probability: info.complianceShare }),
    base_sales_rank: Math.round(logUniform(faker, 30, 400_000)),
  };
}

function imagesFor(faker: Faker, externalId: string): CatalogImageRecord[] {
  const base = `${CATALOG_IMAGE_HOST}/${externalId}`;
  const images: CatalogImageRecord[] = [
    { id: faker.string.uuid(), variant: 'main', url: `${base}/1.jpg`, width: 1500, height: 1500, position: 1 },
    { id: faker.string.uuid(), variant: 'thumbnail', url: `${base}/1._SL160_.jpg`, width: 160, height: 160, position: 2 },
  ];
  const alternates = faker.number.int({ min: 0, max: 4 });
  for (let n = 2; n < 2 + alternates; n++) {
    images.push({ id: faker.string.uuid(), variant: 'alternate', url: `${base}/${n}.jpg`, width: 1500, height: 1500, position: images.length + 1 });
  }
  return images;
}

function sellerCount(faker: Faker, brandProtected: boolean): number {
  if (brandProtected && faker.datatype.boolean({ probability: 0.7 })) return 1;
  return faker.helpers.weightedArrayElement([
    { weight: 35, value: () => faker.number.int({ min: 1, max: 3 }) },
    { weight: 35, value: () => faker.number.int({ min: 4, max: 10 }) },
    { weight: 20, value: () => faker.number.int({ min: 11, max: 20 }) },
    { weight: 10, value: () => faker.number.int({ min: 21, max: MAX_SELLER_COUNT }) },
  ])();
}

function reviews(faker: Faker): { review_count: number; review_rating: number | null } {
  if (faker.datatype.boolean({ probability: 0.05 })) return { review_count: 0, review_rating: null };
  const review_count = Math.round(logUniform(faker, 1, 25_000));
  const review_rating = faker.helpers.weightedArrayElement([
    { weight: 70, value: faker.number.float({ min: 4.0, max: 4.9, fractionDigits: 1 }) },
    { weight: 30, value: faker.number.float({ min: 2.5, max: 3.9, fractionDigits: 1 }) },
  ]);
  return { review_count, review_rating };
}

/** What a listing needs besides the product: where, and when it enters the sandbox's catalog. */
export interface ListingOptions {
  marketplace: MarketplaceRecord;
  /** When the item enters the catalog (created_at and available_at). */
  availableAt: Date;
  /** Latest possible first-listing date (defaults to availableAt). */
  listedBefore?: Date;
}

/** Lists a product on a marketplace: the per-marketplace facts and the simulation parameters. */
export function generateListing(faker: Faker, product: ProductTemplate, options: ListingOptions): CatalogItemRecord {
  const { marketplace, availableAt } = options;
  const listedBefore = options.listedBefore ?? availableAt;
  // A fifth of items are recent (< 90 days of history), so `limited_price_history` shows up in forecasts.
  const ageDays = faker.datatype.boolean({ probability: 0.2 }) ? faker.number.int({ min: 5, max: 89 }) : faker.number.int({ min: 90, max: 1500 });
  const listedAt = new Date(Math.floor((listedBefore.getTime() - ageDays * DAY_MS) / DAY_MS) * DAY_MS);
  const localPriceFactor = faker.number.float({ min: 0.95, max: 1.15 });
  const volatility = faker.helpers.weightedArrayElement([
    { weight: 65, value: () => faker.number.float({ min: 0.01, max: 0.08, fractionDigits: 3 }) },
    { weight: 25, value: () => faker.number.float({ min: 0.08, max: 0.2, fractionDigits: 3 }) },
    { weight: 10, value: () => faker.number.float({ min: 0.2, max: 0.35, fractionDigits: 3 }) },
  ])();
  const stamp = availableAt.toISOString();
  return {
    id: faker.string.uuid(),
    marketplace_id: marketplace.id,
    external_id: product.external_id,
    title: product.title,
    brand: product.brand,
    category: product.category,
    subcategory: product.subcategory,
    identifiers: product.identifiers.map((i) => ({ ...i })),
    images: imagesFor(faker, product.external_id),
    ...reviews(faker),
    is_brand_protected: product.is_brand_protected,
    requires_compliance_documentation: product.requires_compliance_documentation,
    fake_reviews_detected: faker.datatype.boolean({ probability: 0.06 }),
    size_tier: product.size_tier,
    seller_count: sellerCount(faker, product.is_brand_protected),
    listed_at: listedAt.toISOString(),
    available_at: stamp,
    created_at: stamp,
    updated_at: stamp,
    simulation: {
      seed: faker.number.int({ min: 1, max: 2 ** 31 - 1 }),
      base_price: Math.round(product.price_usd * exchangeRate('USD', marketplace.native_currency) * localPriceFactor * 100) / 100,
      price_volatility: volatility,
      base_sales_rank: Math.max(1, Math.round(product.base_sales_rank * faker.number.float({ min: 0.5, max: 2 }))),
      subcategory_rank_factor: faker.number.float({ min: 0.01, max: 0.2, fractionDigits: 3 }),
    },
  };
}

/** Options of the seeded catalog. */
export interface CatalogOptions {
  /** The fixed seed date (2024-09-01T00:00:00Z); every item enters the catalog before it. */
  refDate: Date;
  /** Distinct products; each is listed on the first marketplace and up to three others. */
  products: number;
}

/** The seeded catalog: deterministic for a given faker seed, marketplace list and options. */
export function generateCatalog(faker: Faker, marketplaces: MarketplaceRecord[], options: CatalogOptions): CatalogItemRecord[] {
  const [home, ...others] = marketplaces;
  if (!home) return [];
  const items: CatalogItemRecord[] = [];
  for (let p = 0; p < options.products; p++) {
    const product = generateProductTemplate(faker);
    const targets = [home, ...faker.helpers.arrayElements(others, { min: 0, max: 3 })];
    for (const marketplace of targets) {
      const availableAt = new Date(options.refDate.getTime() - faker.number.int({ min: 3_600, max: 90 * 86_400 }) * 1000);
      items.push(generateListing(faker, product, { marketplace, availableAt }));
    }
  }
  return items;
}

/** The template of an existing listing, so an import that finds a known product lists the same product elsewhere. */
export function templateOf(item: CatalogItemRecord, marketplace: MarketplaceRecord): ProductTemplate {
  return {
    external_id: item.external_id,
    title: item.title,
    brand: item.brand,
    category: item.category,
    subcategory: item.subcategory,
    identifiers: item.identifiers.map((i) => ({ ...i })),
    price_usd: Math.round((item.simulation.base_price / exchangeRate('USD', marketplace.native_currency)) * 100) / 100,
    size_tier: item.size_tier,
    is_brand_protected: item.is_brand_protected,
    requires_compliance_documentation: item.requires_compliance_documentation,
    base_sales_rank: item.simulation.base_sales_rank,
  };
}
