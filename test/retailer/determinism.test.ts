import { describe, expect, it } from 'vitest';
import { generateSellerAccount } from '../../src/retailer/seller-account.js';
import { CHANNEL, OTHER_CHANNEL } from './fixture.js';

const REF = new Date('2024-09-01T00:00:00.000Z');

describe('retailer seller-account generation', () => {
  it('When the same seed and channel are generated twice, then the data is identical', () => {
    expect(JSON.stringify(generateSellerAccount(1, CHANNEL, REF))).toBe(JSON.stringify(generateSellerAccount(1, CHANNEL, REF)));
  });

  it('When the channel or the seed differs, then the data differs', () => {
    const base = generateSellerAccount(1, CHANNEL, REF);
    expect(generateSellerAccount(1, OTHER_CHANNEL, REF).seller_id).not.toBe(base.seller_id);
    expect(generateSellerAccount(2, CHANNEL, REF).seller_id).not.toBe(base.seller_id);
  });

  it('When a seller account is generated, then it is connected and lies before the reference date', () => {
    const w = generateSellerAccount(7, CHANNEL, REF);
    const asins = new Set(w.catalog.map((c) => c.asin));
    const skus = new Set(w.listings.map((l) => l.sku));
    expect(skus.size).toBe(w.listings.length);
    expect(w.listings.every((l) => l.asin !== null && asins.has(l.asin) && l.updated_at < REF.toISOString())).toBe(true);
    expect(w.orders.every((o) => o.purchase_date < REF.toISOString() && o.lines.every((line) => skus.has(line.sku)))).toBe(true);
  });
});
