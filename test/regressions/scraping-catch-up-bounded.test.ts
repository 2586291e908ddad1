// One read after a long clock move used to apply every ended scraping attempt one by one (200 requests x 100
// attempts held the event loop for 21 s). Now a merchant has at most 20 scraping requests, and catch-up reads only
// the attempts that decide each item: the work is counted here, never timed.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { catchUpScraping } from '../../src/areas/sourcing/rules/found-items.js';
import { catalogueSize, foundEntry } from '../../src/areas/sourcing/rules/supplier-catalogue.js';
import { MAX_SCRAPING_REQUESTS_PER_MERCHANT } from '../../src/areas/sourcing/scraping-limits.js';
import { testApp, type TestApp } from '../helpers/app.js';

const DAY = 86_400_000;
const hourly = { source_url: 'https://scraped.example.com/prices', frequency: 'hourly', max_attempts: 100 };

async function merchantWithSupplier(t: TestApp) {
  const merchant = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({ name: 'Bounded Co' });
  const supplier = await request(t.app)
    .post('/2024-09/suppliers')
    .set(t.auth('owner'))
    .send({ merchant_id: merchant.body.data.id, name: 'Scraped', default_currency: 'USD' });
  return { merchantId: merchant.body.data.id as string, supplierId: supplier.body.data.id as string };
}

describe('scraping catch-up is bounded', () => {
  it('When a merchant has its most scraping requests, then one more answers 422 naming the cap, and deleting a supplier frees them', async () => {
    const t = await testApp();
    const { merchantId, supplierId } = await merchantWithSupplier(t);
    for (let i = 0; i < MAX_SCRAPING_REQUESTS_PER_MERCHANT; i++) {
      expect((await request(t.app).post(`/2024-09/suppliers/${supplierId}/scraping-requests`).set(t.auth('owner')).send(hourly)).status).toBe(201);
    }
    const other = await request(t.app)
      .post('/2024-09/suppliers')
      .set(t.auth('owner'))
      .send({ merchant_id: merchantId, name: 'Other', default_currency: 'USD' });
    const refused = await request(t.app).post(`/2024-09/suppliers/${other.body.data.id}/scraping-requests`).set(t.auth('owner')).send(hourly);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.supplier[0]).toContain(`already has ${MAX_SCRAPING_REQUESTS_PER_MERCHANT} scraping requests`);
    expect((await request(t.app).delete(`/2024-09/suppliers/${supplierId}`).set(t.auth('owner'))).status).toBe(204);
    expect((await request(t.app).post(`/2024-09/suppliers/${other.body.data.id}/scraping-requests`).set(t.auth('owner')).send(hourly)).status).toBe(201);
    expect(t.errors).toEqual([]);
  });

  it('When 20 x 100 hourly attempts have ended, then one GET applies them all, reading a few finds per catalogue entry, not every attempt', async () => {
    const t = await testApp();
    const { supplierId } = await merchantWithSupplier(t);
    for (let i = 0; i < MAX_SCRAPING_REQUESTS_PER_MERCHANT; i++) {
      await request(t.app).post(`/2024-09/suppliers/${supplierId}/scraping-requests`).set(t.auth('owner')).send(hourly);
    }
    t.clock.advance(5 * DAY);
    const supplier = t.store.suppliers.get(supplierId)!;
    const requests = t.store.scraping_requests.where('supplier_id', supplierId);
    let finds = 0;
    const result = catchUpScraping({ supplier, requests, items: [], now: t.clock.now(), find: (id, entry) => (finds++, foundEntry(id, entry)) });
    expect(result.applied.map((a) => a.applied_attempts)).toEqual(requests.map(() => 100));
    expect(result.inserts.length).toBe(catalogueSize(supplierId));
    // Attempt by attempt it would read 2,000 x the catalogue; here a handful per entry.
    expect(finds).toBeLessThan(10 * catalogueSize(supplierId));

    expect((await request(t.app).get(`/2024-09/suppliers/${supplierId}`).set(t.auth('owner'))).status).toBe(200);
    const state = await request(t.app).get(`/2024-09/suppliers/${supplierId}/scraping-requests`).query({ per_page: 100 }).set(t.auth('owner'));
    expect(state.body.data.map((r: { status: string; attempts_finished_count: number }) => [r.status, r.attempts_finished_count])).toEqual(
      requests.map(() => ['completed', 100]),
    );
    expect(
      t.store.supplier_items
        .where('supplier_id', supplierId)
        .map((i) => i.id)
        .sort(),
    ).toEqual(result.inserts.map((i) => i.id).sort());
    const attempts = await request(t.app).get(`/2024-09/suppliers/${supplierId}/scraping-attempts`).query({ per_page: 100, page: 20 }).set(t.auth('owner'));
    expect(attempts.body.meta.total).toBe(2000);
    expect(attempts.body.data).toHaveLength(100);
    expect(t.errors).toEqual([]);
  });
});
