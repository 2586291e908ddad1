import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { generateIdentifier } from '../../src/areas/marketplaces/catalog-generator.js';
import { areaFaker } from '../../src/store/seed-context.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aMerchant } from '../helpers/builders.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

const US = 'eeeeeeee-0000-4000-8000-000000000001';
const DE = 'eeeeeeee-0000-4000-8000-000000000005';
const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
const PATH = '/2024-09/marketplaces/catalog-item-imports';
const faker = areaFaker(7, 'import-tests');
const fresh = () => generateIdentifier(faker, 'EAN');
const create = (body: object, who: 'owner' | 'member' | 'outsider' | 'rival' = 'member') => request(t.app).post(PATH).set(t.auth(who)).send(body);
const list = (query: object, who: 'owner' | 'member' | 'outsider' | 'rival' = 'owner') => request(t.app).get(PATH).query(query).set(t.auth(who));
const catalogByIdentifier = (value: string, marketplace = US) =>
  request(t.app).get('/2024-09/marketplaces/catalog-items').query({ identifier: value, marketplace_id: marketplace }).set(t.auth('outsider'));

describe('catalog item imports', () => {
  it('When the clock moves, then an import goes queued (5 s), processing (1 s per identifier), completed with its outcome', async () => {
    const known = t.store.catalog_items.where('marketplace_id', US)[0]!;
    const newCode = fresh();
    const badCode = { type: 'UPC', value: '036000291453' }; // check digit should be 2
    const res = await create({ merchant_id: demo.merchant, marketplace_id: US, identifiers: [known.identifiers[0], newCode, badCode] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: 'queued',
      requested_count: 3,
      found_count: null,
      not_found_count: null,
      found_marketplace_catalog_item_ids: [],
      started_at: null,
      completed_at: null,
    });
    const id = res.body.data.id;
    const status = async () => (await list({ merchant_id: demo.merchant, per_page: 100 })).body.data.find((i: { id: string }) => i.id === id);

    t.clock.advance(5_000);
    expect(await status()).toMatchObject({ status: 'processing', started_at: expect.any(String), completed_at: null, found_count: null });
    expect((await catalogByIdentifier(newCode.value)).body.data).toEqual([]);

    t.clock.advance(3_000);
    const done = await status();
    expect(done).toMatchObject({ status: 'completed', found_count: 2, not_found_count: 1, not_found_identifiers: [badCode] });
    expect(done.found_marketplace_catalog_item_ids[0]).toBe(known.id);
    const created = (await catalogByIdentifier(newCode.value)).body.data;
    expect(created.map((i: { id: string }) => i.id)).toEqual([done.found_marketplace_catalog_item_ids[1]]);
    expect(created[0]).toMatchObject({ marketplace_id: US, identifiers: [newCode], created_at: done.completed_at });
    expect(t.errors).toEqual([]);
  });

  it('When a completed import is read again, or a second import asks for the same code, then no item is created twice', async () => {
    const code = fresh();
    const first = await create({ merchant_id: demo.merchant, marketplace_id: DE, identifiers: [code] });
    const second = await create({ merchant_id: demo.merchant, marketplace_id: DE, identifiers: [code, code] });
    t.clock.advance(60_000);
    const items = (await catalogByIdentifier(code.value, DE)).body.data;
    expect(items).toHaveLength(1);
    const imports = (await list({ merchant_id: demo.merchant, per_page: 100 })).body.data;
    for (const id of [first.body.data.id, second.body.data.id]) {
      expect(imports.find((i: { id: string }) => i.id === id).found_marketplace_catalog_item_ids).toEqual([items[0].id]);
    }
    const again = (await list({ merchant_id: demo.merchant, per_page: 100 })).body.data;
    expect(again).toEqual(imports);
    expect(t.store.catalog_items.byKey('identifier', `EAN:${code.value}`).filter((i) => i.marketplace_id === DE)).toHaveLength(1);
  });

  it('When an import repeats an identifier or names two identifiers of one item, then requested_count is found_count + not_found_count', async () => {
    const item = t.store.catalog_items.all().find((i) => i.marketplace_id === DE && i.identifiers.length >= 2)!;
    const [first, second] = item.identifiers.map(({ type, value }) => ({ type, value }));
    const badCode = { type: 'UPC', value: '036000291453' };
    const res = await create({ merchant_id: demo.merchant, marketplace_id: DE, identifiers: [first, second, first, badCode, badCode] });
    expect(res.status).toBe(201);
    // Each identifier is asked for once: the import keeps it once and takes one second of processing for it.
    expect(res.body.data).toMatchObject({ identifiers: [first, second, badCode], requested_count: 3 });
    t.clock.advance(5_000 + 3_000);
    const done = (await list({ merchant_id: demo.merchant, per_page: 100 })).body.data.find((i: { id: string }) => i.id === res.body.data.id);
    expect(done).toMatchObject({
      status: 'completed',
      requested_count: 3,
      found_count: 2,
      not_found_count: 1,
      found_marketplace_catalog_item_ids: [item.id],
      not_found_identifiers: [badCode],
    });
  });

  it('When an item another marketplace lists is imported, then the new listing is the same product (external id, title)', async () => {
    const usItem = t.store.catalog_items
      .all()
      .find(
        (i) =>
          i.marketplace_id === US &&
          !t.store.catalog_items.byKey('identifier', `${i.identifiers[0]!.type}:${i.identifiers[0]!.value}`).some((x) => x.marketplace_id === DE),
      )!;
    await create({ merchant_id: demo.merchant, marketplace_id: DE, identifiers: [usItem.identifiers[0]] });
    t.clock.advance(10_000);
    const [listing] = (await catalogByIdentifier(usItem.identifiers[0]!.value, DE)).body.data;
    expect(listing).toMatchObject({ external_id: usItem.external_id, title: usItem.title, marketplace_id: DE });
    expect(listing.buy_box_price.currency).toBe('EUR');
  });

  it('When imports are listed with filters, then each returned import matches and the others are left out', async () => {
    await create({ merchant_id: demo.merchant, marketplace_id: DE, identifiers: [fresh()] });
    const queued = await list({ merchant_id: demo.merchant, status: 'queued' });
    expect(queued.body.data).toHaveLength(1);
    const completed = await list({ merchant_id: demo.merchant, status: 'completed' });
    expect(completed.body.data.length).toBeGreaterThan(0);
    expect(completed.body.data.every((i: { status: string }) => i.status === 'completed')).toBe(true);
    const de = await list({ merchant_id: demo.merchant, marketplace_id: DE });
    expect(de.body.data.every((i: { marketplace_id: string }) => i.marketplace_id === DE)).toBe(true);
    const all = await list({ merchant_id: demo.merchant, per_page: 100 });
    expect(all.body.meta.total).toBe(queued.body.meta.total + completed.body.meta.total);
    expect(all.body.data.every((i: { merchant_id: string }) => i.merchant_id === demo.merchant)).toBe(true);
  });

  it('When the caller is not a member, then 403; an unknown merchant is 404; no token is 401', async () => {
    expect((await list({ merchant_id: demo.merchant }, 'rival')).status).toBe(403);
    expect((await create({ merchant_id: demo.merchant, marketplace_id: US, identifiers: [fresh()] }, 'outsider')).status).toBe(403);
    expect((await list({ merchant_id: UNKNOWN })).status).toBe(404);
    expect((await create({ merchant_id: UNKNOWN, marketplace_id: US, identifiers: [fresh()] })).status).toBe(404);
    expect((await request(t.app).get(PATH).query({ merchant_id: demo.merchant })).status).toBe(401);
    expect(
      (
        await request(t.app)
          .post(PATH)
          .send({ merchant_id: demo.merchant, marketplace_id: US, identifiers: [fresh()] })
      ).status,
    ).toBe(401);
    expect(t.store.catalog_item_imports.where('merchant_id', demo.merchant).length).toBe(2);
  });

  it('When the body is wrong, then 422 with the field: unknown marketplace, no identifiers, bad type, extra field, missing merchant_id', async () => {
    const cases: [object, string][] = [
      [{ merchant_id: demo.merchant, marketplace_id: UNKNOWN, identifiers: [fresh()] }, 'marketplace_id'],
      [{ merchant_id: demo.merchant, marketplace_id: US, identifiers: [] }, 'identifiers'],
      [{ merchant_id: demo.merchant, marketplace_id: US, identifiers: [{ type: 'ASIN', value: 'B0X' }] }, 'identifiers.0.type'],
      [{ marketplace_id: US, identifiers: [fresh()] }, 'merchant_id'],
    ];
    for (const [body, field] of cases) {
      const res = await create(body);
      expect(res.status, field).toBe(422);
      expect(Object.keys(res.body.errors).join(' '), field).toContain(field);
    }
    expect((await create({ merchant_id: demo.merchant, marketplace_id: US, identifiers: [fresh()], priority: 'high' }).set('Prefer', 'strict')).status).toBe(
      422,
    );
    expect((await list({ merchant_id: demo.merchant, status: 'failed' })).status).toBe(422);
    expect((await list({})).body.errors).toHaveProperty('merchant_id');
    expect(t.store.catalog_item_imports.where('merchant_id', demo.merchant).length).toBe(2);
  });

  it('When the merchant is deleted after its import completed, with no read in between, then the item that import found is in the catalog', async () => {
    const merchant = await aMerchant(t);
    const code = fresh();
    const res = await create({ merchant_id: merchant.id, marketplace_id: DE, identifiers: [code] }, 'owner');
    expect(res.status).toBe(201);
    t.clock.advance(10_000);
    expect((await request(t.app).delete(`/2024-09/merchants/${merchant.id}`).set(t.auth('owner'))).status).toBe(204);
    const found = (await catalogByIdentifier(code.value, DE)).body.data;
    expect(found).toHaveLength(1);
    // Made when the import completed, before the merchant went.
    expect(found[0].created_at).toBe(new Date(Date.parse(res.body.data.created_at) + 6_000).toISOString());
  });

  it('When the merchant is deleted, then its imports go and the catalog items they found stay', async () => {
    const found = t.store.catalog_item_imports.where('merchant_id', demo.merchant).flatMap((i) => i.found_marketplace_catalog_item_ids);
    expect((await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).status).toBe(204);
    expect(t.store.catalog_item_imports.where('merchant_id', demo.merchant)).toEqual([]);
    for (const id of found) expect(t.store.catalog_items.has(id)).toBe(true);
  });
});
