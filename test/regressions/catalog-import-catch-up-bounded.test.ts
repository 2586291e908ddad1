// The first read of the catalog after the clock moved processed every completed import, each generating up to 100
// listings, and nothing capped how many imports could be pending: one read could hold the event loop for as long as
// a caller liked. Now pending imports are capped per merchant and their identifiers per workspace, so what one read
// processes is bounded; the work is counted here (listings created by one read), never timed.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { generateIdentifier } from '../../src/areas/marketplaces/catalog-generator.js';
import { MAX_PENDING_IMPORT_IDENTIFIERS, MAX_PENDING_IMPORTS_PER_MERCHANT } from '../../src/areas/marketplaces/import-limits.js';
import { areaFaker } from '../../src/store/seed-context.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const US = 'eeeeeeee-0000-4000-8000-000000000001';
const PATH = '/2024-09/marketplaces/catalog-item-imports';
const DAY = 86_400_000;

function identifiers(seed: string, count: number) {
  const faker = areaFaker(7, seed);
  return Array.from({ length: count }, () => generateIdentifier(faker, 'EAN'));
}

const create = (t: TestApp, merchantId: string, ids: object[]) =>
  request(t.app).post(PATH).set(t.auth('owner')).send({ merchant_id: merchantId, marketplace_id: US, identifiers: ids });

async function newMerchant(t: TestApp, name: string): Promise<string> {
  const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({ name });
  expect(res.status).toBe(201);
  return res.body.data.id;
}

describe('catalog import catch-up is bounded', () => {
  it('When the merchant already has 3 pending imports, then 422 naming the cap, and once one completes it may create again', async () => {
    const t = await testApp();
    for (let i = 0; i < MAX_PENDING_IMPORTS_PER_MERCHANT; i++) {
      expect((await create(t, demo.merchant, identifiers(`merchant-cap-${i}`, 1))).status).toBe(201);
    }
    const refused = await create(t, demo.merchant, identifiers('merchant-cap-extra', 1));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.merchant_id[0]).toContain(`already has ${MAX_PENDING_IMPORTS_PER_MERCHANT} catalog item imports queued or processing`);
    // Another merchant is not held by this one's cap.
    expect((await create(t, await newMerchant(t, 'Other Imports Ltd'), identifiers('merchant-cap-other', 1))).status).toBe(201);
    // Completed imports stop counting as soon as the clock passes them, without any read in between.
    t.clock.advance(60_000);
    expect((await create(t, demo.merchant, identifiers('merchant-cap-extra', 1))).status).toBe(201);
    expect(t.errors).toEqual([]);
  });

  it('When the workspace pending imports ask for 300 identifiers, then an import of another merchant answers 422 naming the cap', async () => {
    const t = await testApp();
    for (let i = 0; i < MAX_PENDING_IMPORT_IDENTIFIERS / 100; i++) {
      const merchantId = i === 0 ? demo.merchant : await newMerchant(t, `Filler ${i}`);
      expect((await create(t, merchantId, identifiers(`workspace-cap-${i}`, 100))).status).toBe(201);
    }
    const refused = await create(t, await newMerchant(t, 'One Too Many Ltd'), identifiers('workspace-cap-extra', 1));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.identifiers[0]).toContain(`may ask for at most ${MAX_PENDING_IMPORT_IDENTIFIERS} together`);
    expect(t.errors).toEqual([]);
  });

  it('When the most pending imports wait through a year-long clock move, then the first read creates at most the capped listings and shows them all completed', async () => {
    const t = await testApp();
    const merchants: string[] = [demo.merchant];
    // More merchants than the identifier cap allows to fill: the ones past it are refused, so the pending work stays capped.
    for (let i = 1; i < 6; i++) merchants.push(await newMerchant(t, `Importer ${i}`));
    const statuses: number[] = [];
    for (const [m, merchantId] of merchants.entries()) {
      for (let i = 0; i < MAX_PENDING_IMPORTS_PER_MERCHANT; i++) statuses.push((await create(t, merchantId, identifiers(`bounded-${m}-${i}`, 100))).status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_PENDING_IMPORT_IDENTIFIERS / 100);
    expect(statuses.filter((s) => s === 422)).toHaveLength(merchants.length * MAX_PENDING_IMPORTS_PER_MERCHANT - MAX_PENDING_IMPORT_IDENTIFIERS / 100);

    t.clock.advance(365 * DAY);
    const before = t.store.catalog_items.all().length;
    const read = await request(t.app).get('/2024-09/marketplaces/catalog-items').query({ marketplace_id: US, per_page: 1 }).set(t.auth('outsider'));
    expect(read.status).toBe(200);
    // One listing per new identifier: the whole work of the catch-up, at most the workspace's cap.
    expect(t.store.catalog_items.all().length - before).toBe(MAX_PENDING_IMPORT_IDENTIFIERS);
    expect(t.store.catalog_item_imports.where('processed', false)).toEqual([]);

    const imports = await request(t.app).get(PATH).query({ merchant_id: demo.merchant, status: 'completed', per_page: 100 }).set(t.auth('owner'));
    expect(imports.body.data.filter((i: { found_count: number }) => i.found_count === 100)).toHaveLength(MAX_PENDING_IMPORT_IDENTIFIERS / 100);
    expect(t.errors).toEqual([]);
  });
});
