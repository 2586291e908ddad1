import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/load-contract.js';
import { contractValidator } from '../helpers/contract-schemas.js';

const v = contractValidator();
const doc = loadContract().doc as any;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ops = Object.entries(doc.paths as Record<string, Record<string, any>>)
  .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => ({ path, method: m, op: item[m] })))
  .filter(({ op }) => op.tags?.includes('Marketplaces') || op.tags?.includes('Forecasting'));

describe('the Marketplaces and Forecasting contract', () => {
  it('When listed, then it has exactly the twelve agreed operations', () => {
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(
      [
        'listMarketplaces', 'listCatalogItems', 'getCatalogItem', 'listCatalogItemImages', 'listCatalogItemSalesRanks',
        'listCatalogItemCurrentOffers', 'listCatalogItemPriceHistory', 'listCatalogItemImports', 'createCatalogItemImport',
        'listOpportunityForecasts', 'calculateOpportunityForecast', 'listSalesVolumeForecasts',
      ].sort(),
    );
  });

  it.each(ops.map((o) => [o.op.operationId, o] as const))('When %s has examples, then they validate', (_id, { path, method, op }) => {
    const body = op.requestBody?.content?.['application/json'];
    if (body) expect(v.check(['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'], body.example)).toBeNull();
    const [status, response] = Object.entries(op.responses as Record<string, any>).find(([s]) => s.startsWith('2'))!;
    const media = response.content?.['application/json'];
    expect(media?.example, `${op.operationId} ${status} example`).toBeDefined();
    expect(v.check(['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'], media.example)).toBeNull();
  });

  it('When the forecast list is read, then it documents no 403 and the other operations document 401', () => {
    const list = ops.find((o) => o.op.operationId === 'listOpportunityForecasts')!.op;
    expect(Object.keys(list.responses).sort()).toEqual(['200', '401', '404', '422']);
    for (const { op } of ops) expect(op.responses['401']).toBeDefined();
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
