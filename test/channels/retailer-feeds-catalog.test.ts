// The retailer's feeds and catalog items APIs as a client reaches them: relayed through a connected channel of the
// server a user starts, the retailer's own status in X-Retailer-Status and its body in `response`.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { channels, relayPath } from './support.js';

const US = 'ATVPDKIKX0DER';
/** A marketplace the seeded sellers do not participate in (the United Kingdom). */
const UK = 'A1F83G8C2ARO7P';
const FEEDS = 'feeds/2021-06-30/feeds';
const ITEMS = 'catalog/2022-04-01/items';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

const account = () => t.runtime.resourcesOf(t.world).retailer().account(channels.connected);

/** One relayed call on the connected channel: the retailer's status and its parsed body. */
async function retailer(method: 'get' | 'post', endpoint: string, query: Record<string, string> = {}, body?: object) {
  let call = request(t.app)[method](relayPath(channels.connected, endpoint)).query(query).set(t.auth('owner'));
  if (body) call = call.send(body);
  const res = await call;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { status: Number(res.headers['x-retailer-status']), body: JSON.parse(res.body.response) };
}

/** A catalog call a second after the last: the catalog API allows two calls a second per seller. */
async function catalog(endpoint: string, query: Record<string, string>) {
  t.clock.advance(1000);
  return retailer('get', endpoint, query);
}

const feed = (overrides: Record<string, unknown> = {}) => ({
  feedType: 'POST_PRODUCT_DATA',
  marketplaceIds: [US],
  inputFeedDocumentId: 'amzn1.tortuga.4.na.input-1',
  ...overrides,
});

describe('feeds through the relay', () => {
  it('When a feed is created, then it is IN_QUEUE, after 30 s IN_PROGRESS with its start time, after 60 s DONE with its end time and result document', async () => {
    const created = await retailer('post', FEEDS, {}, feed({ marketplaceIds: [US, 'A2EUQ1WTGCTBG2'] }));
    expect(created.status).toBe(202);
    const { feedId } = created.body as { feedId: string };
    const before = t.clock.now().getTime();

    const queued = await retailer('get', `${FEEDS}/${feedId}`);
    const createdAt: string = queued.body.createdTime;
    expect(Date.parse(createdAt)).toBeLessThanOrEqual(before);
    expect(queued).toEqual({
      status: 200,
      body: { feedId, feedType: 'POST_PRODUCT_DATA', marketplaceIds: [US, 'A2EUQ1WTGCTBG2'], createdTime: createdAt, processingStatus: 'IN_QUEUE' },
    });

    t.clock.advance(30_000);
    const started = (await retailer('get', `${FEEDS}/${feedId}`)).body;
    expect(started.processingStatus).toBe('IN_PROGRESS');
    expect(started.processingStartTime).toBe(new Date(Date.parse(createdAt) + 30_000).toISOString());
    expect(started).not.toHaveProperty('processingEndTime');

    t.clock.advance(30_000);
    const done = (await retailer('get', `${FEEDS}/${feedId}`)).body;
    expect(done).toMatchObject({
      processingStatus: 'DONE',
      processingStartTime: new Date(Date.parse(createdAt) + 30_000).toISOString(),
      processingEndTime: new Date(Date.parse(createdAt) + 60_000).toISOString(),
      resultFeedDocumentId: `amzn1.tortuga.4.na.result.${feedId}`,
    });
  });

  it('When two feeds are created, then each has its own id and each is found by it; an id never created answers 404', async () => {
    const first = (await retailer('post', FEEDS, {}, feed())).body.feedId;
    const second = (await retailer('post', FEEDS, {}, feed({ feedType: 'POST_INVENTORY_AVAILABILITY_DATA' }))).body.feedId;
    expect(second).not.toBe(first);
    expect((await retailer('get', `${FEEDS}/${first}`)).body.feedType).toBe('POST_PRODUCT_DATA');
    expect((await retailer('get', `${FEEDS}/${second}`)).body.feedType).toBe('POST_INVENTORY_AVAILABILITY_DATA');
    const missing = await retailer('get', `${FEEDS}/999999999`);
    expect(missing).toEqual({ status: 404, body: { errors: [{ code: 'NotFound', message: 'Feed 999999999 was not found.' }] } });
  });

  it('When a feed lacks its type, its input document or its marketplaces, or names a marketplace the seller is not in, then 400 naming it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [feed({ feedType: '' }), 'feedType is required.'],
      [feed({ inputFeedDocumentId: undefined }), 'inputFeedDocumentId is required.'],
      [feed({ marketplaceIds: [] }), 'marketplaceIds must be a non-empty array of strings.'],
      [feed({ marketplaceIds: [US, 7] }), 'marketplaceIds must be a non-empty array of strings.'],
      [feed({ marketplaceIds: [UK] }), 'Invalid marketplaceIds: the seller does not participate in every one.'],
    ];
    for (const [body, message] of cases) {
      expect(await retailer('post', FEEDS, {}, body), JSON.stringify(body)).toEqual({ status: 400, body: { errors: [{ code: 'InvalidInput', message }] } });
    }
  });
});

describe('catalog items through the relay', () => {
  it('When one item is asked for with every data set, then each set comes per marketplace asked; with none, only summaries', async () => {
    const item = account().catalog[0]!;
    const full = await catalog(`${ITEMS}/${item.asin}`, { marketplaceIds: `${US},A2EUQ1WTGCTBG2`, includedData: 'summaries,identifiers,images,salesRanks' });
    expect(full.status).toBe(200);
    expect(Object.keys(full.body)).toEqual(['asin', 'summaries', 'identifiers', 'images', 'salesRanks']);
    expect(full.body.summaries).toEqual(
      [US, 'A2EUQ1WTGCTBG2'].map((marketplaceId) => ({
        marketplaceId,
        brand: item.brand,
        itemName: item.title,
        productType: item.product_type,
        websiteDisplayGroupName: item.classification,
      })),
    );
    expect(full.body.images[0].images.map((i: { link: string }) => i.link)).toEqual([item.main_image_url, item.thumbnail_image_url]);
    expect(full.body.salesRanks[1].displayGroupRanks).toEqual([
      { websiteDisplayGroup: item.classification, title: item.classification, rank: item.sales_rank },
    ]);

    const plain = await catalog(`${ITEMS}/${item.asin}`, { marketplaceIds: US });
    expect(Object.keys(plain.body)).toEqual(['asin', 'summaries']);
  });

  it('When an item is unknown, a data set unsupported or the marketplace one the seller is not in, then 404 or 400 naming it', async () => {
    const asin = account().catalog[0]!.asin;
    expect(await catalog(`${ITEMS}/B000000000`, { marketplaceIds: US })).toEqual({
      status: 404,
      body: { errors: [{ code: 'NotFound', message: `Requested item 'B000000000' not found in marketplace ${US}.` }] },
    });
    expect((await catalog(`${ITEMS}/${asin}`, { marketplaceIds: US, includedData: 'summaries,offers' })).body.errors[0].message).toBe(
      'Unsupported includedData: offers. Supported: summaries, identifiers, images, salesRanks.',
    );
    expect((await catalog(`${ITEMS}/${asin}`, { marketplaceIds: UK })).body.errors[0].message).toBe(
      `Invalid marketplaceIds: the seller does not participate in ${UK}.`,
    );
    expect((await catalog(`${ITEMS}/${asin}`, {})).body.errors[0].message).toBe('Missing required parameter marketplaceIds.');
  });

  it('When the search names its listings’ SKUs, then it finds their items; JAN or MINSAN identifiers find nothing', async () => {
    const listed = account()
      .listings.filter((l) => l.asin)
      .slice(0, 2);
    const bySku = await catalog(ITEMS, { marketplaceIds: US, identifiersType: 'SKU', identifiers: listed.map((l) => l.sku).join(',') });
    expect(bySku.status).toBe(200);
    expect(bySku.body.items.map((i: { asin: string }) => i.asin).sort()).toEqual(listed.map((l) => l.asin).sort());
    for (const identifiersType of ['JAN', 'MINSAN']) {
      expect((await catalog(ITEMS, { marketplaceIds: US, identifiersType, identifiers: '4901234567894' })).body).toEqual({
        numberOfResults: 0,
        pagination: {},
        refinements: { brands: [], classifications: [] },
        items: [],
      });
    }
  });

  it('When a keyword search spans pages, then the second page links back to the first, and the brands count every match', async () => {
    const word = account().catalog[0]!.title.split(' ')[1]!;
    const first = await catalog(ITEMS, { marketplaceIds: US, keywords: word, pageSize: '1' });
    expect(first.body.numberOfResults).toBeGreaterThan(1);
    expect(first.body.pagination).not.toHaveProperty('previousToken');
    expect(first.body.refinements.brands.reduce((n: number, b: { numberOfResults: number }) => n + b.numberOfResults, 0)).toBe(first.body.numberOfResults);
    const second = await catalog(ITEMS, { marketplaceIds: US, keywords: word, pageSize: '1', pageToken: first.body.pagination.nextToken });
    expect(second.body.items[0].asin).not.toBe(first.body.items[0].asin);
    const back = await catalog(ITEMS, { marketplaceIds: US, keywords: word, pageSize: '1', pageToken: second.body.pagination.previousToken });
    expect(back.body.items).toEqual(first.body.items);
  });

  it('When the search’s filter or paging is wrong, then 400 saying what is wrong', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ keywords: 'shoe', identifiers: 'B000000001', identifiersType: 'ASIN' }, 'Only one of keywords and identifiers may be specified.'],
      [{}, 'Either keywords or identifiers must be specified.'],
      [
        { identifiers: Array.from({ length: 21 }, (_, i) => `B0000000${String(i).padStart(2, '0')}`).join(','), identifiersType: 'ASIN' },
        'At most 20 identifiers may be specified.',
      ],
      [{ identifiers: 'B000000001' }, 'identifiersType is required with identifiers and must be one of ASIN, EAN, GTIN, ISBN, JAN, MINSAN, SKU, UPC.'],
      [
        { identifiers: 'B000000001', identifiersType: 'ASINS' },
        'identifiersType is required with identifiers and must be one of ASIN, EAN, GTIN, ISBN, JAN, MINSAN, SKU, UPC.',
      ],
      [{ keywords: 'shoe', pageSize: '21' }, 'pageSize must be an integer from 1 to 20.'],
      [{ keywords: 'shoe', pageToken: 'not-a-token' }, 'Invalid pageToken.'],
      [{ keywords: 'shoe', includedData: 'offers' }, 'Unsupported includedData: offers. Supported: summaries, identifiers, images, salesRanks.'],
    ];
    for (const [query, message] of cases) {
      expect(await catalog(ITEMS, { marketplaceIds: US, ...query }), JSON.stringify(query)).toEqual({
        status: 400,
        body: { errors: [{ code: 'InvalidInput', message }] },
      });
    }
  });
});
