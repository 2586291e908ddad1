// Pure seed generators for products: records from a seeded Faker and a fixed reference date, no store access, so
// the same seed gives the same records and wave 2's seed.ts only inserts them.
import type { Faker } from '@faker-js/faker';
import type { ProductIdentifierRecord, ProductImageRecord, ProductRecord } from './record-types.js';

/** The product collections one merchant's seed contributes. */
export interface ProductSeed {
  products: ProductRecord[];
  product_identifiers: ProductIdentifierRecord[];
  product_images: ProductImageRecord[];
}

const DAY = 86_400_000;

/**
 * `n` products of a merchant, created 30 to 240 days before refDate, each with 1-3 identifiers (UPC, its EAN,
 * sometimes an ISBN) and, for nine in ten, 1-3 images added by URL with the first as main image and the last as
 * thumbnail. `pinnedIds[i]`, when given, is the id of product i (fixture ids the docs use).
 */
export function generateProducts(faker: Faker, merchantId: string, n: number, refDate: Date, pinnedIds: readonly string[] = []): ProductSeed {
  const seed: ProductSeed = { products: [], product_identifiers: [], product_images: [] };
  const skus = new Set<string>();
  const prefix = faker.string.alpha({ length: 2, casing: 'upper' });
  for (let i = 0; i < n; i++) {
    const id = pinnedIds[i] ?? faker.string.uuid();
    let sku = `${prefix}-${faker.string.alphanumeric({ length: 6, casing: 'upper' })}`;
    // SKUs are unique within the merchant (the API enforces it); a rare collision gets a suffix.
    while (skus.has(sku)) sku = `${sku}-${i}`;
    skus.add(sku);
    const created = faker.date.between({ from: refDate.getTime() - 240 * DAY, to: refDate.getTime() - 30 * DAY });
    let last = created.getTime();
    const later = () => (last += faker.number.int({ min: 30_000, max: 600_000 }));
    const iso = (ms: number) => new Date(ms).toISOString();

    const upc = faker.commerce.upc();
    const identifiers: { type: ProductIdentifierRecord['type']; value: string }[] = [{ type: 'UPC', value: upc }];
    if (faker.datatype.boolean(0.7)) identifiers.push({ type: 'EAN', value: `0${upc}` });
    if (faker.datatype.boolean(0.1)) identifiers.push({ type: 'ISBN', value: faker.commerce.isbn({ variant: 13, separator: '' }) });
    for (const identifier of identifiers) {
      const at = iso(later());
      seed.product_identifiers.push({ id: faker.string.uuid(), product_id: id, ...identifier, created_at: at, updated_at: at });
    }

    const imageIds: string[] = [];
    const imageCount = faker.datatype.boolean(0.9) ? faker.number.int({ min: 1, max: 3 }) : 0;
    for (let k = 0; k < imageCount; k++) {
      const at = iso(later());
      const imageId = faker.string.uuid();
      imageIds.push(imageId);
      seed.product_images.push({
        id: imageId,
        product_id: id,
        url: `https://picsum.photos/seed/${sku}-${k + 1}/800/800`,
        filename: null,
        content_type: null,
        size: null,
        storage_key: null,
        created_at: at,
        updated_at: at,
      });
    }
    seed.products.push({
      id,
      merchant_id: merchantId,
      sku,
      title: faker.commerce.productName(),
      main_image_id: imageIds[0] ?? null,
      thumbnail_image_id: imageIds[imageIds.length - 1] ?? null,
      created_at: iso(created.getTime()),
      updated_at: iso(last),
    });
  }
  return seed;
}
