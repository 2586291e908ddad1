// A loaded channel's retailer state (its listings and feeds) has the shapes the relay writes, through the real server
// in hosted mode. A feed without its creation time or a listing that is no listing loaded with 201, after which the
// relay's reads of them answered 500.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { added, emptyBundle } from '../bundle/hostile-bundles.js';
import type { Bundle } from '../bundle/session.js';
import { channels, relayPath } from '../channels/support.js';
import { bearer, hostedApp, loadRefused, newWorkspace } from './support.js';

type Hosted = Awaited<ReturnType<typeof hostedApp>>;

const US = 'ATVPDKIKX0DER';
const FEEDS = 'feeds/2021-06-30/feeds';
const INVENTORY = 'fba/inventory/v1/summaries';
const INVENTORY_QUERY = { granularityType: 'Marketplace', granularityId: US, marketplaceIds: US };

/** A retailer state of the connected channel, as the store keeps one. */
const retailerState = (fields: { listings?: Record<string, unknown>; feeds?: unknown[] }) => ({
  id: channels.connected,
  channel_id: channels.connected,
  listings: fields.listings ?? {},
  feeds: fields.feeds ?? [],
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe("a loaded channel's retailer state has the shapes the relay writes", () => {
  let h: Hosted;
  let valid: Bundle;

  beforeEach(async () => {
    h = await hostedApp({ workspaceCreatePerMinute: 100 });
    valid = await emptyBundle(h.app);
  });

  const refused = (b: Bundle) => loadRefused(h, b, (f) => f.startsWith('changes.retailer_states.added.0'));

  it('When a feed lacks its creation time, then 422 names the retailer state', async () => {
    const feed = { feed_id: '12345000001', feed_type: 'POST_PRODUCT_DATA', marketplace_ids: [US], input_feed_document_id: 'doc' };
    await refused(added(valid, 'retailer_states', [retailerState({ feeds: [feed] })]));
  });

  for (const [what, listing] of [
    ['a string', 'not a listing'],
    ['an empty object', {}],
  ] as const) {
    it(`When a listing is ${what}, then 422 names the retailer state`, async () => {
      await refused(added(valid, 'retailer_states', [retailerState({ listings: { SKU1: listing } })]));
    });
  }

  it('When a channel wrote a listing, deleted a generated one and created a feed through the relay, then its export loads and the relay reads them', async () => {
    const ws = await newWorkspace(h.app);
    const relay = (token: string, method: 'get' | 'put' | 'post' | 'delete', endpoint: string) =>
      request(h.app)[method](relayPath(channels.connected, endpoint)).set(bearer(token));
    const summaries = JSON.parse((await relay(ws.tokens.owner, 'get', INVENTORY).query(INVENTORY_QUERY)).body.response);
    const generated = summaries.payload.inventorySummaries[0].sellerSku as string;
    // The retailer names the seller of the authorization when asked for another's listing.
    const wrongSeller = await relay(ws.tokens.owner, 'get', `listings/2021-08-01/items/X/${generated}`).query({ marketplaceIds: US });
    const sellerId = /\((\w+)\)/.exec(JSON.parse(wrongSeller.body.response).errors[0].message)![1]!;
    const listing = `listings/2021-08-01/items/${sellerId}`;
    const put = await relay(ws.tokens.owner, 'put', `${listing}/NEW-SKU`)
      .query({ marketplaceIds: US })
      .send({ productType: 'SHOES', attributes: { item_name: [{ value: 'Shoe' }] } });
    expect(put.headers['x-retailer-status'], put.text.slice(0, 300)).toBe('200');
    expect((await relay(ws.tokens.owner, 'delete', `${listing}/${generated}`).query({ marketplaceIds: US })).headers['x-retailer-status']).toBe('200');
    const feed = await relay(ws.tokens.owner, 'post', FEEDS).send({ feedType: 'POST_PRODUCT_DATA', marketplaceIds: [US], inputFeedDocumentId: 'doc' });
    const { feedId } = JSON.parse(feed.body.response);

    const exported = await request(h.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner));
    expect(exported.status).toBe(200);
    const loaded = await request(h.app).post('/_sandbox/workspaces').send(exported.body);
    expect(loaded.status, loaded.text.slice(0, 400)).toBe(201);
    const token = loaded.body.data.tokens.owner as string;
    const read = await relay(token, 'get', `${FEEDS}/${feedId}`);
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body.response).feedId).toBe(feedId);
    const listed = await relay(token, 'get', `${listing}/NEW-SKU`).query({ marketplaceIds: US });
    expect(listed.headers['x-retailer-status'], listed.text.slice(0, 300)).toBe('200');
    expect((await relay(token, 'get', INVENTORY).query(INVENTORY_QUERY)).status).toBe(200);
  });
});
