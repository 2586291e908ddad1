import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';

const doc = loadContract().doc as any;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ops = Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })))
  .filter(({ op }) => op.tags?.includes('Marketplaces') || op.tags?.includes('Forecasting'));

describe('the Marketplaces and Forecasting contract', () => {
  it('When listed, then it has exactly the twelve agreed operations', () => {
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(
      [
        'listMarketplaces',
        'listCatalogItems',
        'getCatalogItem',
        'listCatalogItemImages',
        'listCatalogItemSalesRanks',
        'listCatalogItemCurrentOffers',
        'listCatalogItemPriceHistory',
        'listCatalogItemImports',
        'createCatalogItemImport',
        'listOpportunityForecasts',
        'calculateOpportunityForecast',
        'listSalesVolumeForecasts',
      ].sort(),
    );
  });

  it('When a catalog item is described, then it carries identifiers and image urls and never upc/ean/gtin/isbn', () => {
    const item = doc.components.schemas.CatalogItem;
    expect(item.required).toEqual(expect.arrayContaining(['identifiers', 'main_image_url', 'thumbnail_image_url']));
    for (const f of ['upc', 'ean', 'gtin', 'isbn']) expect(item.properties[f]).toBeUndefined();
  });

  it('When an opportunity forecast is described, then every spec field but type is required', () => {
    const schema = doc.components.schemas.OpportunityForecast;
    expect(Object.keys(schema.properties).filter((k) => !schema.required.includes(k))).toEqual(['type']);
    expect(doc.components.schemas.RiskFactor.enum).toHaveLength(25);
  });
});
