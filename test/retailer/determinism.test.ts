import { describe, expect, it } from 'vitest';
import { generateWorld } from '../../src/retailer/world.js';
import { CHANNEL, OTHER_CHANNEL } from './fixture.js';

const REF = new Date('2024-09-01T00:00:00.000Z');

describe('retailer world generation', () => {
  it('When the same seed and channel are generated twice, then the data is identical', () => {
    expect(JSON.stringify(generateWorld(1, CHANNEL, REF))).toBe(JSON.stringify(generateWorld(1, CHANNEL, REF)));
  });

  it('When the channel or the seed differs, then the data differs', () => {
    const base = generateWorld(1, CHANNEL, REF);
    expect(generateWorld(1, OTHER_CHANNEL, REF).seller_id).not.toBe(base.seller_id);
    expect(generateWorld(2, CHANNEL, REF).seller_id).not.toBe(base.seller_id);
  });

  it('When a world is generated, then it is connected and lies before the reference date', () => {
    const w = generateWorld(7, CHANNEL, REF);
    const asins = new Set(w.catalog.map((c) => c.asin));
    const skus = new Set(w.listings.map((l) => l.sku));
    expect(skus.size).toBe(w.listings.length);
    expect(w.listings.every((l) => l.asin !== null && asins.has(l.asin) && l.updated_at < REF.toISOString())).toBe(true);
    expect(w.orders.every((o) => o.purchase_date < REF.toISOString() && o.lines.every((line) => skus.has(line.sku)))).toBe(true);
  });
});
