import { describe, expect, it } from 'vitest';
import { catalogueSize, entriesFoundBy, supplierCatalogue, withGs1CheckDigit } from '../../src/areas/sourcing/rules/supplier-catalogue.js';
import { hashUuid } from '../../src/areas/sourcing/rules/deterministic.js';

const supplierId = 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001';

describe('supplierCatalogue', () => {
  it('When derived twice, then the catalogue is identical, 30 to 45 items with distinct SKUs', () => {
    const a = supplierCatalogue(supplierId);
    expect(a).toEqual(supplierCatalogue(supplierId));
    expect(a.length).toBe(catalogueSize(supplierId));
    expect(a.length).toBeGreaterThanOrEqual(30);
    expect(new Set(a.map((e) => e.sku)).size).toBe(a.length);
  });
  it('When items are built, then tiers ascend in quantity, descend in cost, and identifiers carry valid check digits', () => {
    for (const entry of supplierCatalogue(supplierId)) {
      expect(entry.tiers.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < entry.tiers.length; i++) {
        expect(entry.tiers[i]!.minimum_order_quantity).toBeGreaterThan(entry.tiers[i - 1]!.minimum_order_quantity);
        expect(entry.tiers[i]!.base_value).toBeLessThanOrEqual(entry.tiers[i - 1]!.base_value);
      }
      const upc = entry.identifiers.find((x) => x.type === 'UPC')!.value;
      expect(upc).toMatch(/^\d{12}$/);
      expect(withGs1CheckDigit(upc.slice(0, 11))).toBe(upc);
    }
  });
  it('When the GS1 check digit is computed, then it matches a known UPC', () => {
    expect(withGs1CheckDigit('03600029145')).toBe('036000291452');
  });
});

describe('entriesFoundBy', () => {
  it('When an attempt finds items, then it finds most of the catalogue with costs within 5% and never negative', () => {
    const found = entriesFoundBy(supplierId, hashUuid('attempt', 1));
    expect(found.length).toBeGreaterThan(catalogueSize(supplierId) * 0.6);
    for (const { entry, tiers } of found) {
      tiers.forEach((t, i) => {
        expect(t.value).toBeGreaterThanOrEqual(0);
        expect(Math.abs(t.value - entry.tiers[i]!.base_value)).toBeLessThanOrEqual(entry.tiers[i]!.base_value * 0.05 + 0.01);
      });
    }
  });
});
