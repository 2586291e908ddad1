import { describe, expect, it } from 'vitest';
import { supplierItemRefErrors, supplierSkuErrors } from '../../src/areas/sourcing/rules/supplier-item-refs.js';

const owners: Record<string, string> = { 'sup-a': 'm-a', 'sup-b': 'm-b', 'prod-a': 'm-a', 'prod-b': 'm-b' };
const lookup = { supplierMerchant: (id: string) => owners[id], productMerchant: (id: string) => owners[id] };

describe('supplierItemRefErrors', () => {
  it('When supplier and product belong to the merchant, then there are no errors', () => {
    expect(supplierItemRefErrors('m-a', { supplier_id: 'sup-a', product_id: 'prod-a' }, lookup)).toEqual({});
  });
  it('When product_id is null or absent, then it passes', () => {
    expect(supplierItemRefErrors('m-a', { supplier_id: 'sup-a', product_id: null }, lookup)).toEqual({});
    expect(supplierItemRefErrors('m-a', {}, lookup)).toEqual({});
  });
  it('When the supplier and product belong to another merchant, then both fields answer the same error as unknown ids', () => {
    const other = supplierItemRefErrors('m-a', { supplier_id: 'sup-b', product_id: 'prod-b' }, lookup);
    const unknown = supplierItemRefErrors('m-a', { supplier_id: 'nope', product_id: 'nope' }, lookup);
    expect(other).toEqual({
      supplier_id: ['The selected supplier id is invalid.'],
      product_id: ['The selected product id is invalid.'],
    });
    expect(unknown).toEqual(other);
  });
});

describe('supplierSkuErrors', () => {
  const items = [
    { id: 'i1', sku: 'ABC-1' },
    { id: 'i2', sku: null },
  ];
  it('When another item of the supplier has the sku, then it answers errors.sku', () => {
    expect(supplierSkuErrors('ABC-1', items)).toEqual({ sku: ['The sku has already been taken.'] });
  });
  it('When the item keeps its own sku or the sku is null, then it passes', () => {
    expect(supplierSkuErrors('ABC-1', items, 'i1')).toEqual({});
    expect(supplierSkuErrors(null, items)).toEqual({});
  });
});
