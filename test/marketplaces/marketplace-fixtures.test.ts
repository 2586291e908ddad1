import { describe, expect, it } from 'vitest';
import { isSupportedCurrency } from '../../src/areas/marketplaces/currencies.js';
import { MARKETPLACE_SCALE } from '../../src/areas/forecasting/sales-volume-model.js';
import { contractValidator } from '../helpers/contract-schemas.js';
import { MARKETPLACES } from './support/catalog-world.js';

const v = contractValidator();

describe('fixtures/marketplaces.json', () => {
  it('When loaded, then every marketplace validates against the Marketplace schema', () => {
    for (const m of MARKETPLACES) expect(v.checkSchema('Marketplace', m)).toBeNull();
  });

  it('When ids are read, then they are fixed hex-only uuids, unique, as are the retailer ids', () => {
    const ids = MARKETPLACES.map((m) => m.id);
    for (const id of ids) expect(id).toMatch(/^eeeeeeee-0000-4000-8000-0000000000\d\d$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(MARKETPLACES.map((m) => m.external_id)).size).toBe(ids.length);
  });

  it('When the model meets a marketplace, then it knows its currency and market size', () => {
    for (const m of MARKETPLACES) {
      expect(isSupportedCurrency(m.native_currency)).toBe(true);
      expect(MARKETPLACE_SCALE[m.country_code]).toBeGreaterThan(0);
    }
  });

  it('When regions are counted, then North America, Europe and Asia are all there, US first', () => {
    expect(new Set(MARKETPLACES.map((m) => m.region))).toEqual(new Set(['north_america', 'europe', 'asia']));
    expect(MARKETPLACES[0]!.country_code).toBe('US');
  });
});
