import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SCRAPING_REQUEST_ID, DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { aSupplier } from '../helpers/builders.js';

const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
const MINUTE = 60_000;
const DAY = 86_400_000;
interface Attempt {
  id: string;
  status: string;
  attempt_number: number;
  scheduled_to_run_at: string;
  attempt_started_at: string | null;
  finished_at: string | null;
  found_items_count: number;
  failure_reason: string | null;
}

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});
const api = () => request(t.app);
const newSupplier = async (default_currency: string) => (await aSupplier(t, { name: 'Scraped Co', default_currency })).id;
const attemptsOf = async (supplierId: string, query: Record<string, unknown> = {}) => {
  const res = await api()
    .get(`/2024-09/suppliers/${supplierId}/scraping-attempts`)
    .query({ per_page: 100, ...query })
    .set(t.auth('owner'));
  expect(res.status).toBe(200);
  return res.body.data as Attempt[];
};
const itemsOf = async (supplierId: string) =>
  (await api().get('/2024-09/supplier-items').query({ merchant_id: demo.merchant, supplier_id: supplierId, per_page: 100 }).set(t.auth('owner'))).body;

describe('scraping lifecycle as the clock moves', () => {
  it('When a one-off request is created, then its attempt goes scheduled → running → finished or failed, and finds become items', async () => {
    const supplierId = await newSupplier('GBP');
    const created = await api()
      .post(`/2024-09/suppliers/${supplierId}/scraping-requests`)
      .set(t.auth('member'))
      .send({ source_url: 'https://scraped.example.com/prices' });
    expect(created.status).toBe(201);
    const request0 = created.body.data;
    expect(request0).toMatchObject({ frequency: 'once', max_attempts: 1, status: 'scheduled', attempts_finished_count: 0, supplier_id: supplierId });
    expect(request0.next_attempt_at).toBe(request0.starts_at);
    expect(request0).not.toHaveProperty('applied_attempts');

    const [scheduled] = await attemptsOf(supplierId);
    expect(scheduled).toMatchObject({ status: 'scheduled', attempt_started_at: null, finished_at: null, found_items_count: 0, attempt_number: 1 });
    expect(await attemptsOf(supplierId, { not_started: true })).toHaveLength(1);
    expect(await attemptsOf(supplierId, { not_started: false })).toHaveLength(0);

    t.clock.advance(2 * MINUTE + 1000);
    const [running] = await attemptsOf(supplierId);
    expect(running!.status).toBe('running');
    expect(running!.attempt_started_at).not.toBeNull();
    expect(await attemptsOf(supplierId, { not_started: true })).toHaveLength(0);
    const mid = await api().get(`/2024-09/suppliers/${supplierId}/scraping-requests/${request0.id}`).set(t.auth('owner'));
    expect(mid.body.data).toMatchObject({ status: 'running', next_attempt_at: null, attempts_finished_count: 0 });
    expect((await itemsOf(supplierId)).data).toEqual([]);

    t.clock.advance(15 * MINUTE);
    const [ended] = await attemptsOf(supplierId);
    expect(['finished', 'failed']).toContain(ended!.status);
    const done = await api().get(`/2024-09/suppliers/${supplierId}/scraping-requests/${request0.id}`).set(t.auth('owner'));
    expect(done.body.data).toMatchObject({ status: 'completed', attempts_finished_count: 1 });
    const items = await itemsOf(supplierId);
    if (ended!.status === 'finished') {
      expect(ended!.found_items_count).toBeGreaterThan(0);
      expect(ended!.failure_reason).toBeNull();
      expect(items.meta.total).toBe(ended!.found_items_count);
      for (const item of items.data) {
        expect(item).toMatchObject({ product_id: null, supplier_id: supplierId, created_at: ended!.finished_at });
        expect(item.costs.every((c: { cost: { currency: string } }) => c.cost.currency === 'GBP')).toBe(true);
        expect(item.identifiers.map((i: { type: string }) => i.type).sort()).toEqual(['EAN', 'UPC']);
      }
    } else {
      expect(ended!.found_items_count).toBe(0);
      expect(ended!.failure_reason).toEqual(expect.any(String));
      expect(items.data).toEqual([]);
    }

    // Catch-up is idempotent: reading again writes nothing and finds the same items.
    const version = t.world.store.version;
    expect((await itemsOf(supplierId)).data).toEqual(items.data);
    await attemptsOf(supplierId);
    expect(t.world.store.version).toBe(version);
  });

  it('When a daily request runs for days, then attempts follow its schedule, date filters pick days, and later finds refresh items', async () => {
    const supplierId = await newSupplier('USD');
    const startsAt = new Date(t.clock.now().getTime() + DAY);
    startsAt.setUTCHours(6, 0, 0, 0);
    const created = await api()
      .post(`/2024-09/suppliers/${supplierId}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'https://scraped.example.com/daily', frequency: 'daily', starts_at: startsAt.toISOString(), max_attempts: 5 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ starts_at: startsAt.toISOString(), next_attempt_at: startsAt.toISOString(), status: 'scheduled' });

    const all = await attemptsOf(supplierId);
    expect(all.map((a) => a.scheduled_to_run_at)).toEqual([0, 1, 2, 3, 4].map((k) => new Date(startsAt.getTime() + k * DAY).toISOString()));
    const day = (k: number) => new Date(startsAt.getTime() + k * DAY).toISOString().slice(0, 10);
    expect((await attemptsOf(supplierId, { from_date: day(1), to_date: day(2) })).map((a) => a.attempt_number)).toEqual([2, 3]);
    expect((await attemptsOf(supplierId, { from_date: day(4) })).map((a) => a.attempt_number)).toEqual([5]);
    expect((await attemptsOf(supplierId, { to_date: day(0) })).map((a) => a.attempt_number)).toEqual([1]);

    // To an hour after the second attempt, whatever the time of day the clock started at.
    t.clock.advance(startsAt.getTime() + DAY + 60 * MINUTE - t.clock.now().getTime());
    const firstTwo = (await attemptsOf(supplierId)).filter((a) => a.finished_at !== null);
    expect(firstTwo.map((a) => a.attempt_number)).toEqual([1, 2]);
    const itemsAfterTwo = (await itemsOf(supplierId)).data;

    t.clock.advance(4 * DAY);
    const attempts = await attemptsOf(supplierId);
    expect(attempts.every((a) => a.finished_at !== null)).toBe(true);
    const got = await api().get(`/2024-09/suppliers/${supplierId}/scraping-requests/${created.body.data.id}`).set(t.auth('owner'));
    expect(got.body.data).toMatchObject({ status: 'completed', attempts_finished_count: 5, next_attempt_at: null });
    const items = (await itemsOf(supplierId)).data as { sku: string; updated_at: string; costs: { id: string }[] }[];
    const maxFound = Math.max(...attempts.map((a) => a.found_items_count));
    expect(items.length).toBeGreaterThanOrEqual(maxFound);
    // SKUs are unique within the supplier: a later find refreshes the item instead of duplicating it.
    expect(new Set(items.map((i) => i.sku)).size).toBe(items.length);
    for (const before of itemsAfterTwo as typeof items) {
      const after = items.find((i) => i.sku === before.sku)!;
      expect(after.updated_at >= before.updated_at).toBe(true);
      // A refreshed tier keeps its id (forecasts stay attached): no tier id of before is lost.
      expect(after.costs.map((c) => c.id)).toEqual(expect.arrayContaining(before.costs.map((c) => c.id)));
    }
  });

  it('When the seeded demo supplier is read, then its scraping history shows ended attempts and the pinned request', async () => {
    const res = await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`).set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: string }) => r.id)).toContain(DEMO_SCRAPING_REQUEST_ID);
    const pinned = await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests/${DEMO_SCRAPING_REQUEST_ID}`).set(t.auth('member'));
    expect(pinned.body.data).toMatchObject({ frequency: 'daily', max_attempts: 30 });
    const history = await attemptsOf(DEMO_SUPPLIER_ID, { from_date: '2024-08-31', to_date: '2024-09-01' });
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((a) => a.scheduled_to_run_at >= '2024-08-31' && a.scheduled_to_run_at < '2024-09-02')).toBe(true);
    expect(history.some((a) => a.status === 'finished' && a.found_items_count > 0)).toBe(true);
  });
});

describe('createScrapingRequest', () => {
  it('When the body breaks a rule (once with 2 attempts), then 422 errors.max_attempts', async () => {
    const res = await api()
      .post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'https://a.example.com', frequency: 'once', max_attempts: 2 });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ max_attempts: ['The max attempts field must be 1 when the frequency is once.'] });
  });

  it('When fields are invalid (ftp url, monthly, 101 attempts), then 422 on each; an unknown field is ignored', async () => {
    const res = await api()
      .post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'ftp://a.example.com', frequency: 'monthly', max_attempts: 101, priority: 1 });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['frequency', 'max_attempts', 'source_url']);
    expect(res.headers['sandbox-ignored-fields']).toBe('body.priority');
  });

  it('When source_url has no host (https://, https:///prices), then 422 errors.source_url', async () => {
    for (const source_url of ['https://', 'https:///prices']) {
      const res = await api().post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`).set(t.auth('owner')).send({ source_url });
      expect([source_url, res.status, Object.keys(res.body.errors ?? {})]).toEqual([source_url, 422, ['source_url']]);
    }
  });

  it('When starts_at is in the past, then it means now: history is never backfilled', async () => {
    const res = await api()
      .post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'https://a.example.com', frequency: 'hourly', starts_at: '2020-01-01T00:00:00Z', max_attempts: 3 });
    expect(res.status).toBe(201);
    expect(res.body.data.starts_at >= res.body.data.created_at).toBe(true);
    expect(res.body.data.status).toBe('scheduled');
  });

  it('When starts_at names a day or time the calendar lacks (month 13, 25 h, a +05 offset, a leap second), then 422 errors.starts_at', async () => {
    for (const starts_at of ['2030-13-01T00:00:00Z', '2030-02-30T00:00:00Z', '2030-01-01T25:00:00Z', '2030-01-01T00:00:00+05', '2030-06-30T23:59:60Z']) {
      const res = await api()
        .post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`)
        .set(t.auth('owner'))
        .send({ source_url: 'https://a.example.com', starts_at });
      expect([starts_at, res.status, Object.keys(res.body.errors ?? {})]).toEqual([starts_at, 422, ['starts_at']]);
    }
  });

  it("When a weekly request would start in year 9999, then 422 errors.starts_at, and the supplier's attempts still list", async () => {
    const res = await api()
      .post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'https://a.example.com', frequency: 'weekly', max_attempts: 100, starts_at: '9999-12-31T23:59:59Z' });
    expect(res.status).toBe(422);
    expect(res.body.errors.starts_at[0]).toMatch(/^The starts at field must be a date before or equal to \d{4}-/);
    const late = await api()
      .post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`)
      .set(t.auth('owner'))
      .send({ source_url: 'https://a.example.com', starts_at: '9999-12-31T23:59:59-23:59' });
    expect(late.status).toBe(422);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`).query({ not_started: true }).set(t.auth('owner'))).status).toBe(200);
  });

  it('When the supplier is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    const body = { source_url: 'https://a.example.com' };
    expect((await api().post(`/2024-09/suppliers/${UNKNOWN}/scraping-requests`).set(t.auth('owner')).send(body)).status).toBe(404);
    expect((await api().post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`).set(t.auth('rival')).send(body)).status).toBe(403);
    expect((await api().post(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`).send(body)).status).toBe(401);
  });
});

describe('listScrapingRequests and getScrapingRequest', () => {
  it('When page is 0 or per_page 101, then 422; unknown supplier 404; another merchant 403; no token 401', async () => {
    const url = `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`;
    const bad = await api().get(url).query({ page: 0, per_page: 101 }).set(t.auth('owner'));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'per_page']);
    expect((await api().get(`/2024-09/suppliers/${UNKNOWN}/scraping-requests`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(url).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get(url)).status).toBe(401);
  });

  it("When a request is asked for under another supplier, or is unknown, then 404; another merchant's, then 403; no token, 401", async () => {
    const otherSupplier = t.store.suppliers.where('merchant_id', demo.merchant).find((s) => s.id !== DEMO_SUPPLIER_ID)!;
    expect((await api().get(`/2024-09/suppliers/${otherSupplier.id}/scraping-requests/${DEMO_SCRAPING_REQUEST_ID}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests/${UNKNOWN}`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests/${DEMO_SCRAPING_REQUEST_ID}`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests/${DEMO_SCRAPING_REQUEST_ID}`)).status).toBe(401);
  });
});

describe('listScrapingAttempts', () => {
  it('When to_date is before from_date, or a date is not a date, then 422 on that field', async () => {
    const url = `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`;
    const reversed = await api().get(url).query({ from_date: '2024-09-02', to_date: '2024-09-01' }).set(t.auth('owner'));
    expect(reversed.status).toBe(422);
    expect(reversed.body.errors).toEqual({ to_date: ['The to date field must be a date after or equal to from date.'] });
    const notDate = await api().get(url).query({ from_date: 'yesterday', not_started: 'maybe', per_page: 101 }).set(t.auth('owner'));
    expect(notDate.status).toBe(422);
    expect(Object.keys(notDate.body.errors).sort()).toEqual(['from_date', 'not_started', 'per_page']);
  });

  it('When from_date or to_date names a day the calendar lacks (2024-13-01, 2023-02-29), then 422 on that field', async () => {
    const url = `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`;
    const res = await api().get(url).query({ from_date: '2024-13-01', to_date: '2023-02-29' }).set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['from_date', 'to_date']);
  });

  it('When the supplier is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    expect((await api().get(`/2024-09/suppliers/${UNKNOWN}/scraping-attempts`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`)).status).toBe(401);
  });
});
