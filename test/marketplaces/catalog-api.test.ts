import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';

// Read-only operations: one seeded world for the file.
let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});

const US = 'eeeeeeee-0000-4000-8000-000000000001';
const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
const get = (path: string, query: Record<string, unknown> = {}, who: 'owner' | 'outsider' = 'owner') =>
  request(t.app).get(`/2024-09${path}`).query(query).set(t.auth(who));
const firstItem = () => t.store.catalog_items.all()[0]!;
const SUB_RESOURCES = ['images', 'sales-ranks', 'current-offers', 'price-history'];

describe('listMarketplaces', () => {
  it('When any user lists marketplaces, then 200 with the 15 seeded marketplaces, US first, paginated', async () => {
    const res = await get('/marketplaces', { per_page: 100 }, 'outsider');
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(15);
    expect(res.body.data[0]).toMatchObject({ id: US, country_code: 'US', native_currency: 'USD', domain: 'www.amazon.com' });
    const page2 = await get('/marketplaces', { per_page: 10, page: 2 });
    expect(page2.body.data).toHaveLength(5);
    expect(page2.body.meta).toMatchObject({ current_page: 2, from: 11, to: 15, last_page: 2 });
  });

  it('When filtered by region, then only that region comes back', async () => {
    const res = await get('/marketplaces', { region: 'asia' });
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(res.body.data.every((m: { region: string }) => m.region === 'asia')).toBe(true);
  });

  it('When the region is not one of the enum or per_page is out of bounds, then 422 with the field', async () => {
    const res = await get('/marketplaces', { region: 'antarctica' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('region');
    expect((await get('/marketplaces', { per_page: 101 })).body.errors).toHaveProperty('per_page');
  });

  it('When no token is sent, then 401 on every catalog operation', async () => {
    const item = firstItem().id;
    for (const path of [
      '/marketplaces',
      '/marketplaces/catalog-items',
      `/marketplaces/catalog-items/${item}`,
      ...SUB_RESOURCES.map((r) => `/marketplaces/catalog-items/${item}/${r}`),
    ]) {
      expect((await request(t.app).get(`/2024-09${path}`)).status, path).toBe(401);
    }
  });
});

describe('listCatalogItems', () => {
  it('When listed, then 200 with every seeded item, paginated 15 a page, each with a live buy-box price', async () => {
    const res = await get('/marketplaces/catalog-items', {}, 'outsider');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(15);
    expect(res.body.meta.total).toBe(t.store.catalog_items.size);
    expect(res.body.data[0]).toMatchObject({ buy_box_price: { value: expect.any(Number), currency: expect.any(String) } });
    expect(res.body.data[0]).not.toHaveProperty('simulation');
  });

  it('When filtered by marketplace, category, text or identifier, then every item matches and the others are left out', async () => {
    const sample = t.store.catalog_items.all().find((i) => i.marketplace_id !== US)!;
    const byMarketplace = await get('/marketplaces/catalog-items', { marketplace_id: sample.marketplace_id, per_page: 100 });
    expect(byMarketplace.body.data.length).toBe(t.store.catalog_items.where('marketplace_id', sample.marketplace_id).length);
    expect(byMarketplace.body.data.every((i: { marketplace_id: string }) => i.marketplace_id === sample.marketplace_id)).toBe(true);

    const byCategory = await get('/marketplaces/catalog-items', { category: sample.category, per_page: 100 });
    expect(byCategory.body.data.every((i: { category: string }) => i.category === sample.category)).toBe(true);
    expect(byCategory.body.meta.total).toBe(t.store.catalog_items.all().filter((i) => i.category === sample.category).length);

    const byText = await get('/marketplaces/catalog-items', { q: sample.external_id.toLowerCase(), per_page: 100 });
    expect(byText.body.data.map((i: { external_id: string }) => i.external_id)).toContain(sample.external_id);
    expect(
      byText.body.data.every((i: { external_id: string; title: string; brand: string }) =>
        `${i.title} ${i.brand} ${i.external_id}`.toLowerCase().includes(sample.external_id.toLowerCase()),
      ),
    ).toBe(true);

    const [identifier] = sample.identifiers;
    const byIdentifier = await get('/marketplaces/catalog-items', { identifier: identifier!.value, identifier_type: identifier!.type });
    expect(byIdentifier.body.data.length).toBeGreaterThan(0);
    expect(byIdentifier.body.data.every((i: { identifiers: { value: string }[] }) => i.identifiers.some((x) => x.value === identifier!.value))).toBe(true);
  });

  it('When a filter matches nothing (an unknown marketplace), then an empty page, not 404', async () => {
    const res = await get('/marketplaces/catalog-items', { marketplace_id: UNKNOWN });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ total: 0, from: null, to: null });
  });

  it('When a filter is malformed, then 422 with the field', async () => {
    expect((await get('/marketplaces/catalog-items', { marketplace_id: 'nope' })).body.errors).toHaveProperty('marketplace_id');
    expect((await get('/marketplaces/catalog-items', { category: 'weapons' })).body.errors).toHaveProperty('category');
    expect((await get('/marketplaces/catalog-items', { page: 0 })).status).toBe(422);
  });
});

describe('getCatalogItem and its sub-resources', () => {
  it('When an item is read, then 200 with its data; its images come in display order', async () => {
    const item = firstItem();
    const res = await get(`/marketplaces/catalog-items/${item.id}`, {}, 'outsider');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: item.id, offer_count: item.seller_count, main_image_url: expect.stringContaining('https://') });
    const images = await get(`/marketplaces/catalog-items/${item.id}/images`);
    expect(images.status).toBe(200);
    expect(images.body.data.map((i: { position: number }) => i.position)).toEqual(item.images.map((_, n) => n + 1));
    expect(images.body.data[0]).toMatchObject({ variant: 'main', url: res.body.data.main_image_url });
  });

  it('When an item id is unknown or malformed, then 404 on the item and every sub-resource', async () => {
    for (const id of [UNKNOWN, 'not-a-uuid']) {
      expect((await get(`/marketplaces/catalog-items/${id}`)).status).toBe(404);
      for (const r of SUB_RESOURCES) expect((await get(`/marketplaces/catalog-items/${id}/${r}`)).status, r).toBe(404);
    }
  });

  it('When sales ranks are read by level and date range, then only those points come back, oldest first', async () => {
    const item = firstItem();
    const all = await get(`/marketplaces/catalog-items/${item.id}/sales-ranks`, { per_page: 100 });
    expect(all.status).toBe(200);
    const root = await get(`/marketplaces/catalog-items/${item.id}/sales-ranks`, { category_level: 'root', per_page: 100 });
    expect(root.body.data.every((p: { category_level: string }) => p.category_level === 'root')).toBe(true);
    expect(root.body.meta.total * 2).toBe(all.body.meta.total);
    const times = root.body.data.map((p: { recorded_at: string }) => Date.parse(p.recorded_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    const from = root.body.data[2].recorded_at;
    const to = root.body.data[5].recorded_at;
    const ranged = await get(`/marketplaces/catalog-items/${item.id}/sales-ranks`, { category_level: 'subcategory', from_date: from, to_date: to });
    expect(ranged.body.data).toHaveLength(4);
    expect(
      ranged.body.data.every(
        (p: { recorded_at: string; category_level: string }) => p.recorded_at >= from && p.recorded_at <= to && p.category_level === 'subcategory',
      ),
    ).toBe(true);
  });

  it('When from_date is after to_date, or a date or level is malformed, then 422 with the field', async () => {
    const item = firstItem().id;
    for (const r of ['sales-ranks', 'price-history']) {
      const res = await get(`/marketplaces/catalog-items/${item}/${r}`, { from_date: '2024-08-10T00:00:00Z', to_date: '2024-08-01T00:00:00Z' });
      expect(res.status, r).toBe(422);
      // Laravel's before_or_equal message, worded as every other field message of the API ("The ... field must ...").
      expect(res.body.errors).toEqual({ from_date: ['The from date field must be a date before or equal to to date.'] });
      expect((await get(`/marketplaces/catalog-items/${item}/${r}`, { to_date: 'yesterday' })).body.errors).toHaveProperty('to_date');
    }
    expect((await get(`/marketplaces/catalog-items/${item}/sales-ranks`, { category_level: 'leaf' })).status).toBe(422);
    expect((await get(`/marketplaces/catalog-items/${item}/images`, { per_page: 0 })).status).toBe(422);
    expect((await get(`/marketplaces/catalog-items/${item}/current-offers`, { page: 'x' })).status).toBe(422);
  });

  it('When price history is paginated, then pages tile the series without overlap', async () => {
    const item = firstItem().id;
    const whole = await get(`/marketplaces/catalog-items/${item}/price-history`, { per_page: 100 });
    const second = await get(`/marketplaces/catalog-items/${item}/price-history`, { per_page: 50, page: 2 });
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(whole.body.data.slice(50, 100));
    expect(second.body.links.prev).toContain('page=1');
  });

  it('When nothing went wrong, then the app logged no unexpected error', () => {
    expect(t.errors).toEqual([]);
  });
});
