import { describe, expect, it } from 'vitest';
import { searchChannelCatalogItems } from '../../src/retailer/catalog-search.js';
import { bodyOf, connectedRetailer, US } from './fixture.js';

describe('catalog search', () => {
  it('When searching by an item UPC, then the contract-shaped item comes back without upc/ean/gtin/isbn fields', () => {
    const { account } = connectedRetailer();
    const item = account.catalog[5]!;
    const upc = item.identifiers.find((i) => i.type === 'UPC')!.value;
    const found = searchChannelCatalogItems(account.catalog, US, { identifier: upc, identifier_type: 'UPC' });
    expect(found).toHaveLength(1);
    expect(Object.keys(found[0]!).sort()).toEqual(['asin', 'brand', 'identifiers', 'main_image_url', 'marketplace_id', 'thumbnail_image_url', 'title']);
    expect(searchChannelCatalogItems(account.catalog, US, { identifier: upc, identifier_type: 'ISBN' })).toHaveLength(0);
  });

  it('When searching by keywords, then every match contains every word; with no filter the whole catalog comes back', () => {
    const { account } = connectedRetailer();
    const word = account.catalog[0]!.title.split(' ')[1]!.toLowerCase();
    const found = searchChannelCatalogItems(account.catalog, null, { keywords: word });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((i) => `${i.title} ${i.brand}`.toLowerCase().includes(word))).toBe(true);
    expect(searchChannelCatalogItems(account.catalog, null, {})).toHaveLength(account.catalog.length);
  });

  it('When the relayed catalog API pages with pageToken, then pages do not overlap', () => {
    const { call, account } = connectedRetailer({ rateLimit: () => null });
    const first = bodyOf(
      call('GET', 'catalog/2022-04-01/items', {
        marketplaceIds: US,
        identifiersType: 'ASIN',
        identifiers: account.catalog
          .slice(0, 15)
          .map((c) => c.asin)
          .join(','),
        pageSize: '10',
      }),
    );
    expect(first.numberOfResults).toBe(15);
    const second = bodyOf(
      call('GET', 'catalog/2022-04-01/items', {
        marketplaceIds: US,
        identifiersType: 'ASIN',
        identifiers: account.catalog
          .slice(0, 15)
          .map((c) => c.asin)
          .join(','),
        pageSize: '10',
        pageToken: first.pagination.nextToken,
      }),
    );
    expect([...first.items, ...second.items].map((i: any) => i.asin)).toEqual(account.catalog.slice(0, 15).map((c) => c.asin));
    const one = bodyOf(call('GET', `catalog/2022-04-01/items/${account.catalog[0]!.asin}`, { marketplaceIds: US, includedData: 'identifiers,images' }));
    expect(one.identifiers[0].identifiers[0].identifierType).toBe('UPC');
  });
});
