import { describe, expect, it } from 'vitest';
import { matchesProductFilters } from '../../src/areas/products/rules/product-search.js';
import { imageRefErrors } from '../../src/areas/products/rules/image-refs.js';
import { duplicateIdentifierErrors } from '../../src/areas/products/rules/identifier-duplicates.js';
import type { ProductRecord } from '../../src/areas/products/record-types.js';

const product: ProductRecord = {
  id: 'dddddddd-dddd-4ddd-8ddd-ddddddddd001',
  merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  sku: 'DO-TRAIL-TENT-2P',
  title: 'Trailhead 2-Person Backpacking Tent',
  main_image_id: null,
  thumbnail_image_id: null,
  created_at: '2024-02-01T10:00:00.000Z',
  updated_at: '2024-02-01T10:00:00.000Z',
};

describe('matchesProductFilters', () => {
  it('When q is part of the title or SKU in any case, then the product matches', () => {
    expect(matchesProductFilters(product, { q: 'backpacking' })).toBe(true);
    expect(matchesProductFilters(product, { q: 'tent-2p' })).toBe(true);
    expect(matchesProductFilters(product, { q: 'stove' })).toBe(false);
  });
  it('When sku is given, then only the exact, case-sensitive SKU matches', () => {
    expect(matchesProductFilters(product, { sku: 'DO-TRAIL-TENT-2P' })).toBe(true);
    expect(matchesProductFilters(product, { sku: 'do-trail-tent-2p' })).toBe(false);
    expect(matchesProductFilters(product, { sku: 'DO-TRAIL' })).toBe(false);
  });
  it('When both filters are given, then both must match; with none, everything matches', () => {
    expect(matchesProductFilters(product, { q: 'tent', sku: 'DO-TRAIL-TENT-2P' })).toBe(true);
    expect(matchesProductFilters(product, { q: 'stove', sku: 'DO-TRAIL-TENT-2P' })).toBe(false);
    expect(matchesProductFilters(product, {})).toBe(true);
  });
});

describe('imageRefErrors', () => {
  const own = new Set(['img-1', 'img-2']);
  it("When the ids are the product's images or null, then there are no errors", () => {
    expect(imageRefErrors({ main_image_id: 'img-1', thumbnail_image_id: null }, own)).toEqual({});
    expect(imageRefErrors({}, own)).toEqual({});
  });
  it('When an id is not an image of the product, then that field answers an error', () => {
    expect(imageRefErrors({ main_image_id: 'img-9', thumbnail_image_id: 'img-2' }, own)).toEqual({
      main_image_id: ['The selected main image id is invalid.'],
    });
  });
});

describe('duplicateIdentifierErrors', () => {
  const existing = [{ type: 'UPC' as const, value: '036000291452' }];
  it('When the same type and value exist, then it answers errors.value', () => {
    expect(duplicateIdentifierErrors(existing, { type: 'UPC', value: '036000291452' })).toEqual({
      value: ['The value has already been taken.'],
    });
  });
  it('When the type or value differs, then it passes', () => {
    expect(duplicateIdentifierErrors(existing, { type: 'GTIN', value: '036000291452' })).toEqual({});
    expect(duplicateIdentifierErrors(existing, { type: 'UPC', value: '036000291453' })).toEqual({});
  });
});
