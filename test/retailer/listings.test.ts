import { describe, expect, it } from 'vitest';
import { bodyOf, connectedRetailer, US } from './fixture.js';

const putBody = (quantity: number) => ({
  productType: 'SHOES',
  requirements: 'LISTING',
  attributes: {
    item_name: [{ value: 'Trail Runner 2' }],
    purchasable_offer: [{ currency: 'USD', our_price: [{ schedule: [{ value_with_tax: 89.99 }] }] }],
    fulfillment_availability: [{ fulfillment_channel_code: 'AMAZON_NA', quantity }],
  },
});

describe('retailer listings 2021-08-01', () => {
  it('When a listing is PUT, then a later GET sees it and FBA inventory counts it', () => {
    const { call, account, port } = connectedRetailer();
    const path = `listings/2021-08-01/items/${account.seller_id}/NEW-SKU-1`;
    expect(call('GET', path, { marketplaceIds: US }).status).toBe(404);
    const put = call('PUT', path, { marketplaceIds: US }, { body: putBody(25) });
    expect(put.status).toBe(200);
    expect(bodyOf(put)).toMatchObject({ sku: 'NEW-SKU-1', status: 'ACCEPTED', issues: [] });
    const got = bodyOf(call('GET', path, { marketplaceIds: US }));
    expect(got.summaries[0].itemName).toBe('Trail Runner 2');
    expect(got.fulfillmentAvailability[0].quantity).toBe(25);
    expect(got.offers[0].price).toEqual({ currencyCode: 'USD', amount: '89.99' });
    expect(port.getState('cccccccc-cccc-4ccc-8ccc-ccccccccc001')?.listings['NEW-SKU-1']).toBeTruthy();
    const inventory = bodyOf(
      call('GET', 'fba/inventory/v1/summaries', { granularityType: 'Marketplace', granularityId: US, marketplaceIds: US, sellerSkus: 'NEW-SKU-1' }),
    );
    expect(inventory.payload.inventorySummaries[0]).toMatchObject({ sellerSku: 'NEW-SKU-1', totalQuantity: 25 });
  });

  it('When a generated listing is PATCHed, then GET shows the patched attribute and keeps the rest', () => {
    const { call, account } = connectedRetailer();
    const sku = account.listings[0]!.sku;
    const path = `listings/2021-08-01/items/${account.seller_id}/${sku}`;
    const before = bodyOf(call('GET', path, { marketplaceIds: US }));
    const patch = {
      productType: account.listings[0]!.product_type,
      patches: [{ op: 'replace', path: '/attributes/fulfillment_availability', value: [{ fulfillment_channel_code: 'DEFAULT', quantity: 7 }] }],
    };
    expect(call('PATCH', path, { marketplaceIds: US }, { body: patch }).status).toBe(200);
    const after = bodyOf(call('GET', path, { marketplaceIds: US }));
    expect(after.fulfillmentAvailability[0].quantity).toBe(7);
    expect(after.summaries[0].itemName).toBe(before.summaries[0].itemName);
  });

  it('When a listing is DELETEd, then GET answers 404 and a second DELETE too', () => {
    const { call, account } = connectedRetailer();
    const path = `listings/2021-08-01/items/${account.seller_id}/${account.listings[3]!.sku}`;
    expect(call('DELETE', path, { marketplaceIds: US }).status).toBe(200);
    expect(call('GET', path, { marketplaceIds: US }).status).toBe(404);
    expect(call('DELETE', path, { marketplaceIds: US }).status).toBe(404);
  });

  it('When the seller id is not the channel seller, or the body lacks productType, then the retailer answers 400', () => {
    const { call, account } = connectedRetailer();
    expect(call('GET', `listings/2021-08-01/items/A000WRONG/${account.listings[0]!.sku}`, { marketplaceIds: US }).status).toBe(400);
    const res = call('PUT', `listings/2021-08-01/items/${account.seller_id}/X`, { marketplaceIds: US }, { body: { attributes: {} } });
    expect(res.status).toBe(400);
  });

  it('When a SKU with a space and a slash is sent URL-encoded in the path, then the retailer decodes it: one listing, named as the seller wrote it', () => {
    const { call, account } = connectedRetailer();
    const path = `listings/2021-08-01/items/${account.seller_id}/${encodeURIComponent('TRAIL RUNNER/42')}`;
    expect(bodyOf(call('PUT', path, { marketplaceIds: US }, { body: putBody(3) }))).toMatchObject({ sku: 'TRAIL RUNNER/42', status: 'ACCEPTED' });
    expect(bodyOf(call('GET', path, { marketplaceIds: US })).sku).toBe('TRAIL RUNNER/42');
    const inventory = bodyOf(
      call('GET', 'fba/inventory/v1/summaries', { granularityType: 'Marketplace', granularityId: US, marketplaceIds: US, sellerSkus: 'TRAIL RUNNER/42' }),
    );
    expect(inventory.payload.inventorySummaries[0]).toMatchObject({ sellerSku: 'TRAIL RUNNER/42', totalQuantity: 3 });
    // A SKU sent unencoded is taken as written, even when it does not decode.
    expect(bodyOf(call('PUT', `listings/2021-08-01/items/${account.seller_id}/50%OFF`, { marketplaceIds: US }, { body: putBody(1) })).sku).toBe('50%OFF');
  });
});
