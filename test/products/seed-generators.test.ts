import { describe, expect, it } from 'vitest';
import { Faker, en } from '@faker-js/faker';
import { generateProducts } from '../../src/areas/products/seed-generators.js';

const refDate = new Date('2024-09-01T00:00:00.000Z');
const make = (seed: number) => {
  const faker = new Faker({ locale: [en] });
  faker.seed(seed);
  faker.setDefaultRefDate(refDate);
  return generateProducts(faker, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 40, refDate, ['dddddddd-dddd-4ddd-8ddd-ddddddddd001']);
};

describe('generateProducts', () => {
  it('When run twice with one seed, then the records are identical; another seed gives others', () => {
    expect(make(1)).toEqual(make(1));
    expect(make(2).products[1]!.sku).not.toBe(make(1).products[1]!.sku);
  });
  it('When products are generated, then SKUs are unique, the pinned id is used, and images and identifiers belong to them', () => {
    const s = make(1);
    expect(s.products[0]!.id).toBe('dddddddd-dddd-4ddd-8ddd-ddddddddd001');
    expect(new Set(s.products.map((p) => p.sku)).size).toBe(40);
    const ids = new Set(s.products.map((p) => p.id));
    expect(s.product_images.every((i) => ids.has(i.product_id))).toBe(true);
    expect(s.product_identifiers.every((i) => ids.has(i.product_id))).toBe(true);
    expect(s.products.every((p) => s.product_identifiers.some((i) => i.product_id === p.id && i.type === 'UPC'))).toBe(true);
    for (const p of s.products) {
      if (p.main_image_id) expect(s.product_images.find((i) => i.id === p.main_image_id)!.product_id).toBe(p.id);
      expect(p.created_at <= p.updated_at).toBe(true);
      expect(p.updated_at < refDate.toISOString()).toBe(true);
    }
  });
});
