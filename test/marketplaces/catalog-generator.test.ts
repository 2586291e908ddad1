import { describe, expect, it } from 'vitest';
import { presentCatalogItem, presentCatalogItemImages } from '../../src/areas/marketplaces/catalog-item-view.js';
import { isValidIdentifier } from '../../src/areas/marketplaces/identifier-codes.js';
import { contractValidator } from '../helpers/contract-schemas.js';
import { MARKETPLACES, REF_DATE, catalogFor, marketplaceOf } from './support/catalog-world.js';

const v = contractValidator();
const catalog = catalogFor();

describe('the catalog generator', () => {
  it('When run twice with the same seed, then it produces the same catalog; another seed, another catalog', () => {
    expect(catalogFor()).toEqual(catalog);
    expect(catalogFor(7)[0]!.id).not.toBe(catalog[0]!.id);
  });

  it('When items are presented, then each validates against CatalogItem and its images against CatalogItemImage', () => {
    for (const item of catalog) {
      expect(v.checkSchema('CatalogItem', presentCatalogItem(item, marketplaceOf(item), REF_DATE))).toBeNull();
      for (const image of presentCatalogItemImages(item)) expect(v.checkSchema('CatalogItemImage', image)).toBeNull();
    }
  });

  it('When a presented item gains a upc field, then the contract rejects it (the schema is strict)', () => {
    const shown = presentCatalogItem(catalog[0]!, marketplaceOf(catalog[0]!), REF_DATE);
    expect(v.checkSchema('CatalogItem', { ...shown, upc: '036000291452' })).not.toBeNull();
  });

  it('When identifiers are read, then each has a valid check digit, so importing it finds it', () => {
    for (const item of catalog) {
      expect(item.identifiers.length).toBeGreaterThan(0);
      for (const id of item.identifiers) expect(isValidIdentifier(id.type, id.value)).toBe(true);
    }
  });

  it('When images are read, then main_image_url and thumbnail_image_url are the main and thumbnail images', () => {
    for (const item of catalog) {
      const shown = presentCatalogItem(item, marketplaceOf(item), REF_DATE);
      expect(shown.main_image_url).toBe(item.images.find((i) => i.variant === 'main')!.url);
      expect(shown.thumbnail_image_url).toBe(item.images.find((i) => i.variant === 'thumbnail')!.url);
    }
  });

  it('When timestamps are read, then every item entered the catalog before the seed date and was listed before that', () => {
    for (const item of catalog) {
      expect(Date.parse(item.created_at)).toBeLessThan(REF_DATE.getTime());
      expect(item.available_at).toBe(item.created_at);
      expect(Date.parse(item.listed_at)).toBeLessThanOrEqual(Date.parse(item.created_at));
    }
  });

  it('When one product is listed on several marketplaces, then it keeps its external id and identifiers', () => {
    const byExternal = new Map<string, typeof catalog>();
    for (const i of catalog) byExternal.set(i.external_id, [...(byExternal.get(i.external_id) ?? []), i]);
    const multi = [...byExternal.values()].filter((l) => l.length > 1);
    expect(multi.length).toBeGreaterThan(0);
    for (const listings of multi) {
      expect(new Set(listings!.map((l) => JSON.stringify(l.identifiers))).size).toBe(1);
      expect(new Set(listings!.map((l) => l.marketplace_id)).size).toBe(listings!.length);
    }
  });

  it('When the catalog is spread, then every marketplace has items and the forecast-relevant traits all occur', () => {
    for (const m of MARKETPLACES) expect(catalog.some((i) => i.marketplace_id === m.id)).toBe(true);
    expect(catalog.some((i) => i.is_brand_protected && i.seller_count === 1)).toBe(true);
    expect(catalog.some((i) => i.seller_count > 20)).toBe(true);
    expect(catalog.some((i) => i.review_rating === null || i.review_count < 50)).toBe(true);
    expect(catalog.some((i) => i.fake_reviews_detected)).toBe(true);
  });
});
