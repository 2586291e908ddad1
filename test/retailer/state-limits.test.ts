import { describe, expect, it } from 'vitest';
import { emptyState } from '../../src/retailer/channel-state.js';
import type { RetailerListing } from '../../src/retailer/record-types.js';
import { RETAILER_STATE_LIMITS } from '../../src/retailer/state-limits.js';
import { bodyOf, CHANNEL, connectedRetailer, T0, US } from './fixture.js';

const { listings: LISTINGS, attributeBytes: ATTRIBUTE_BYTES, feeds: FEEDS } = RETAILER_STATE_LIMITS;
const listingBody = (attributes: Record<string, unknown> = { item_name: [{ value: 'x' }] }) => ({ productType: 'SHOES', attributes });
const feedBody = { feedType: 'POST_PRODUCT_DATA', marketplaceIds: [US], inputFeedDocumentId: 'doc-1' };

/** A retailer whose channel already changed `count` listings (added SKUs FULL-0, FULL-1, ...). */
function withChangedListings(count: number) {
  const retailer = connectedRetailer({ rateLimit: () => null });
  const state = emptyState(CHANNEL, T0);
  for (let i = 0; i < count; i++) {
    const sku = `FULL-${i}`;
    state.listings[sku] = {
      sku,
      asin: null,
      product_type: 'SHOES',
      attributes: {},
      created_at: T0.toISOString(),
      updated_at: T0.toISOString(),
    } satisfies RetailerListing;
  }
  retailer.port.putState(state);
  return retailer;
}

describe("the bounds of a channel's changes at the retailer", () => {
  it('When a channel has changed as many listings as the retailer keeps, then a new SKU is 400 InvalidInput, a changed one still updates and deletes', () => {
    const { call, account } = withChangedListings(LISTINGS);
    const path = (sku: string) => `listings/2021-08-01/items/${account.seller_id}/${sku}`;
    const refused = call('PUT', path('ONE-MORE'), { marketplaceIds: US }, { body: listingBody() });
    expect(refused.status).toBe(400);
    expect(bodyOf(refused).errors[0].message).toContain(`changed ${LISTINGS} listings`);
    // Deleting a generated listing would be one more change too.
    expect(call('DELETE', path(account.listings[0]!.sku), { marketplaceIds: US }).status).toBe(400);
    expect(call('PUT', path('FULL-7'), { marketplaceIds: US }, { body: listingBody() }).status).toBe(200);
    expect(call('DELETE', path('FULL-7'), { marketplaceIds: US }).status).toBe(200);
    // The deletion freed a place.
    expect(call('PUT', path('ONE-MORE'), { marketplaceIds: US }, { body: listingBody() }).status).toBe(200);
  });

  it('When attributes are larger than the retailer keeps, then PUT and PATCH are 400 InvalidInput and nothing is stored', () => {
    const { call, account, port } = connectedRetailer({ rateLimit: () => null });
    const path = `listings/2021-08-01/items/${account.seller_id}/BIG`;
    const big = { item_name: [{ value: 'x'.repeat(ATTRIBUTE_BYTES) }] };
    const put = call('PUT', path, { marketplaceIds: US }, { body: listingBody(big) });
    expect(put.status).toBe(400);
    expect(bodyOf(put).errors[0].message).toMatch(/attributes must not be larger than 32768 bytes/);
    expect(port.getState(CHANNEL)).toBeUndefined();
    expect(call('PUT', path, { marketplaceIds: US }, { body: listingBody() }).status).toBe(200);
    const patch = { productType: 'SHOES', patches: [{ op: 'replace', path: '/attributes/item_name', value: big.item_name }] };
    expect(call('PATCH', path, { marketplaceIds: US }, { body: patch }).status).toBe(400);
    expect(port.getState(CHANNEL)?.listings.BIG?.attributes).toEqual({ item_name: [{ value: 'x' }] });
  });

  it('When a channel has created as many feeds as the retailer keeps, then one more is 400 InvalidInput', () => {
    const { call, port } = connectedRetailer({ rateLimit: () => null });
    const state = emptyState(CHANNEL, T0);
    state.feeds = Array.from({ length: FEEDS }, (_, i) => ({
      feed_id: String(10_000 + i),
      feed_type: 'POST_PRODUCT_DATA',
      marketplace_ids: [US],
      input_feed_document_id: 'doc',
      created_at: T0.toISOString(),
    }));
    port.putState(state);
    const res = call('POST', 'feeds/2021-06-30/feeds', {}, { body: feedBody });
    expect(res.status).toBe(400);
    expect(bodyOf(res).errors[0].message).toContain(`created ${FEEDS} feeds`);
    expect(port.getState(CHANNEL)?.feeds).toHaveLength(FEEDS);
  });

  it('When a productType, feedType or inputFeedDocumentId is longer than 256 characters, then 400 InvalidInput; a feed naming a marketplace twice keeps it once', () => {
    const { call, account, port } = connectedRetailer({ rateLimit: () => null });
    const long = 'x'.repeat(257);
    const put = call('PUT', `listings/2021-08-01/items/${account.seller_id}/LONG`, { marketplaceIds: US }, { body: { productType: long, attributes: {} } });
    expect(bodyOf(put).errors[0]).toMatchObject({ code: 'InvalidInput', message: 'productType must not be longer than 256 characters.' });
    expect(bodyOf(call('POST', 'feeds/2021-06-30/feeds', {}, { body: { ...feedBody, feedType: long } })).errors[0].message).toBe(
      'feedType must not be longer than 256 characters.',
    );
    expect(call('POST', 'feeds/2021-06-30/feeds', {}, { body: { ...feedBody, inputFeedDocumentId: long } }).status).toBe(400);
    expect(port.getState(CHANNEL)).toBeUndefined();
    expect(call('POST', 'feeds/2021-06-30/feeds', {}, { body: { ...feedBody, marketplaceIds: Array(5000).fill(US) } }).status).toBe(202);
    expect(port.getState(CHANNEL)?.feeds[0]?.marketplace_ids).toEqual([US]);
  });
});
