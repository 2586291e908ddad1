import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { paginate } from '../../src/http/pagination.js';
import { testApp } from '../helpers/app.js';

const url = 'http://127.0.0.1:4010/2024-09/products?merchant_id=m1&q=shoe&page=2';
const items = Array.from({ length: 32 }, (_, i) => i + 1);

describe('paginate', () => {
  it('When 32 items are split by 15, then page 2 holds 16..30 with both neighbours linked', () => {
    const page = paginate(items, { page: 2, per_page: 15 }, url);
    expect(page.data).toEqual(items.slice(15, 30));
    expect(page.meta).toEqual({ current_page: 2, from: 16, last_page: 3, path: 'http://127.0.0.1:4010/2024-09/products', per_page: 15, to: 30, total: 32 });
    expect(page.links.prev).toBe('http://127.0.0.1:4010/2024-09/products?merchant_id=m1&q=shoe&page=1');
    expect(page.links.next).toBe('http://127.0.0.1:4010/2024-09/products?merchant_id=m1&q=shoe&page=3');
    expect(page.links.first).toMatch(/page=1$/);
    expect(page.links.last).toMatch(/page=3$/);
  });

  it('When the last page is asked for, then next is null and to is the total', () => {
    const page = paginate(items, { page: 3, per_page: 15 }, url);
    expect(page.data).toEqual([31, 32]);
    expect(page.meta).toMatchObject({ from: 31, to: 32 });
    expect(page.links.next).toBeNull();
  });

  it('When page 1 is asked for, then prev is null; per_page defaults to 15', () => {
    const page = paginate(items, {}, url);
    expect(page.meta.per_page).toBe(15);
    expect(page.links.prev).toBeNull();
  });

  it('When the list is empty, then from/to are null, last_page is 1 and there are no neighbours', () => {
    const page = paginate([], { page: 1 }, url);
    expect(page.meta).toMatchObject({ from: null, to: null, total: 0, last_page: 1 });
    expect(page.links).toMatchObject({ prev: null, next: null });
  });

  it('When a page past the end is asked for, then it is empty with from/to null', () => {
    const page = paginate(items, { page: 9, per_page: 15 }, url);
    expect(page.data).toEqual([]);
    expect(page.meta).toMatchObject({ current_page: 9, from: null, to: null, last_page: 3 });
    expect(page.links.next).toBeNull();
    expect(page.links.prev).toMatch(/page=3$/);
  });
});

describe('pagination over the API', () => {
  it('When a user with 24 merchants walks the pages, then every merchant appears once, in creation order', async () => {
    const t = await testApp();
    for (let i = 0; i < 22; i++) {
      t.clock.advance(1000);
      await request(t.app)
        .post('/2024-09/merchants')
        .set(t.auth('owner'))
        .send({ name: `M${i}` })
        .expect(201);
    }
    const seen: string[] = [];
    let next: string | null = '/2024-09/merchants?per_page=10';
    while (next) {
      const res: request.Response = await request(t.app)
        .get(next.replace(/^http:\/\/[^/]+/, ''))
        .set(t.auth('owner'));
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((m: { name: string }) => m.name));
      expect(res.body.meta.total).toBe(24); // 22 made here, the demo merchant and the spare one
      expect(res.body.links.first).toContain('per_page=10');
      next = res.body.links.next;
    }
    expect(seen).toEqual(['Demo Outfitters', 'Spare Outfitters', ...Array.from({ length: 22 }, (_, i) => `M${i}`)]);
  });

  it('When page is past a 32-bit integer (2147483648, 1e20 typed out), then 422 errors.page; 2147483647 is an empty page that says so', async () => {
    const t = await testApp();
    for (const page of ['2147483648', '99999999999999999999', `1${'0'.repeat(300)}`]) {
      const res = await request(t.app).get(`/2024-09/merchants?page=${page}`).set(t.auth('owner'));
      expect([page.length, res.status, Object.keys(res.body.errors ?? {})]).toEqual([page.length, 422, ['page']]);
    }
    const last = await request(t.app).get('/2024-09/merchants?page=2147483647').set(t.auth('owner'));
    expect(last.status).toBe(200);
    expect(last.body.meta).toMatchObject({ current_page: 2147483647, from: null, to: null });
    expect(last.text).toContain('"current_page":2147483647,');
  });

  it('When the Host header names a port past 65535 or a bracketed IPv4 address, then a list answers 200 with links on http://localhost', async () => {
    const t = await testApp();
    for (const host of ['sandbox.test:99999', '[1.2.3.4]:4010']) {
      const res = await request(t.app).get('/2024-09/merchants').set('Host', host).set(t.auth('owner'));
      expect([host, res.status]).toEqual([host, 200]);
      expect(res.body.meta.path).toBe('http://localhost/2024-09/merchants');
    }
    expect(t.errors).toEqual([]);
  });
});
