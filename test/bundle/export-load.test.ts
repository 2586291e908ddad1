// A CI failure travels: a workspace exported as one bundle and loaded as another answers the same further requests
// with the same bytes. Through the real server (supertest over createServer), with the wall clock frozen so both
// worlds read the same time.
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { bearer, exported, newWorkspace, PNG, scriptedSession, type Ws } from './session.js';

/** The further requests both worlds get, in order: reads, creations (new ids), updates and deletions. */
function furtherRequests(ids: { product: string; supplierItem: string; merchant: string }): [string, string, object?][] {
  return [
    ['get', `/2024-09/products?merchant_id=${demo.merchant}&per_page=100`],
    ['get', `/2024-09/products/${ids.product}`],
    ['get', `/2024-09/products/${DEMO_PRODUCT_ID}`],
    ['post', '/2024-09/products', { merchant_id: demo.merchant, sku: 'AFTER-1', title: 'After the load' }],
    [
      'post',
      '/2024-09/supplier-items',
      {
        merchant_id: demo.merchant,
        supplier_id: DEMO_SUPPLIER_ID,
        sku: 'ITEM-AFTER',
        costs: [{ minimum_order_quantity: 5, cost: { value: 7, currency: 'USD' } }],
      },
    ],
    ['get', `/2024-09/supplier-items?merchant_id=${demo.merchant}&per_page=100`],
    ['get', `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests`],
    ['get', `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`],
    ['get', `/2024-09/channels?merchant_id=${demo.merchant}`],
    ['get', '/2024-09/merchants'],
    ['get', `/2024-09/merchants/${ids.merchant}`],
    ['get', `/2024-09/products/${ids.product}/images`],
    ['delete', `/2024-09/products/${ids.product}`],
    ['get', `/2024-09/products?merchant_id=${demo.merchant}&per_page=100`],
    ['delete', `/2024-09/supplier-items/${ids.supplierItem}`],
    ['get', '/2024-09/users/current'],
  ];
}

describe('Export and load of a workspace', () => {
  let t: TestApp;
  beforeEach(async () => {
    // One frozen wall clock for both worlds: their answers read the same time.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-03-02T09:00:00.000Z') });
    t = await testApp();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('When a scripted session in A is exported and loaded as B, then the same further requests answer byte for byte the same in A and B (but the request id and the workspace id in image URLs)', async () => {
    const a = await newWorkspace(t);
    const ids = await scriptedSession(t, a);
    const bundle = await exported(t, a);
    const b = await newWorkspace(t, bundle);
    expect(b.id).not.toBe(a.id);
    // A world of its own, with its own tokens: A's do not open B.
    expect(Object.values(b.tokens)).not.toContain(a.tokens.owner);
    const answers = async (ws: Ws) => {
      const out: string[] = [];
      for (const [method, path, body] of furtherRequests(ids)) {
        const req = (request(t.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path).set(bearer(ws.tokens.owner));
        const res = await (body ? req.send(body) : req);
        // The HTTP Date header is Node's own (the real wall clock), not the world's.
        const headers = Object.entries(res.headers).filter(([name]) => name !== 'x-request-id' && name !== 'date');
        // Image URLs name the world they are served from (`?workspace=<id>`): the one per-workspace byte.
        out.push(JSON.stringify({ status: res.status, headers, text: res.text }).replaceAll(ws.id, '<workspace>'));
      }
      return out;
    };
    const fromA = await answers(a);
    const fromB = await answers(b);
    expect(fromB).toEqual(fromA);
    expect(fromA.join('')).toContain('AFTER-1');
    // The clock moved with the world.
    const clockOf = async (ws: Ws) => (await request(t.app).get('/_sandbox/clock').set(bearer(ws.tokens.owner))).body.data;
    expect((await clockOf(b)).offset_ms).toBe(30 * 3_600_000);
    expect((await clockOf(b)).now).toBe((await clockOf(a)).now);
    expect(t.errors).toEqual([]);
  });

  it("When a bundle is loaded, then its journal shows the recorded requests marked loaded and its coverage is the run's", async () => {
    const a = await newWorkspace(t);
    await scriptedSession(t, a);
    const bundle = await exported(t, a);
    const b = await newWorkspace(t, bundle);
    const journal = (await request(t.app).get('/_sandbox/requests?limit=1000').set(bearer(b.tokens.owner))).body.data as {
      loaded?: boolean;
      workspace: string;
      path: string;
    }[];
    const original = bundle.journal as { path: string }[];
    expect(journal.map((e) => e.path)).toEqual(original.map((e) => e.path));
    expect(journal.every((e) => e.loaded === true && e.workspace === b.id)).toBe(true);
    const coverage = async (ws: Ws) => (await request(t.app).get('/_sandbox/coverage').set(bearer(ws.tokens.owner))).body.data.totals;
    expect(await coverage(b)).toEqual(await coverage(a));
    // A new request of B is its own, not marked loaded.
    await request(t.app).get('/2024-09/merchants').set(bearer(b.tokens.owner)).expect(200);
    const newest = (await request(t.app).get('/_sandbox/requests?limit=1').set(bearer(b.tokens.owner))).body.data[0];
    expect(newest.loaded).toBeUndefined();
  });

  it('When a bundle is exported, then it names the format, the contract hash, the seed, the clock and the changes, and never an API token', async () => {
    const a = await newWorkspace(t);
    await scriptedSession(t, a);
    const bundle = await exported(t, a);
    expect(bundle).toMatchObject({
      format: 'commerce-operations-sandbox/workspace-bundle',
      format_version: 1,
      seed: t.world.store.seed,
      clock: { offset_ms: 30 * 3_600_000 },
    });
    expect((bundle.contract as { sha256: string }).sha256).toMatch(/^[0-9a-f]{64}$/);
    const changes = bundle.changes as Record<string, { added: unknown[]; changed: unknown[]; deleted: string[] }>;
    expect(changes.products!.deleted).toContain(DEMO_PRODUCT_ID);
    expect(changes.products!.added).toHaveLength(1);
    expect(changes.tokens).toBeUndefined();
    expect((bundle.uploads as { base64: string }[])[0]!.base64).toBe(PNG.toString('base64'));
    const text = JSON.stringify(bundle);
    for (const token of Object.values(a.tokens)) expect(text).not.toContain(token.split('.')[1]);
  });
});

describe('Who may export a workspace', () => {
  const ADMIN = '5c2f0e8a9b7d4c31a6e2f08b9d7c4e15';
  it("When no token, another workspace's token, its member's, its owner's or the admin token asks for a hosted workspace's export, then 401, 403, 403, 200 and 200", async () => {
    const t = await testApp({ hosted: true, adminToken: ADMIN, publicUrl: 'https://sandbox.example.test', workspaceCreatePerMinute: 100 });
    const a = await newWorkspace(t);
    const other = await newWorkspace(t);
    const path = `/_sandbox/workspaces/${a.id}/export`;
    expect((await request(t.app).get(path)).status).toBe(401);
    const foreign = await request(t.app).get(path).set(bearer(other.tokens.owner));
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ message: 'A workspace token acts on its own workspace only.' });
    // Of the workspace's own tokens only the owner's exports it (test/hosted/owner-only.test.ts walks every role).
    const member = await request(t.app).get(path).set(bearer(a.tokens.member));
    expect(member.status).toBe(403);
    expect((await request(t.app).get(path).set(bearer(a.tokens.owner))).status).toBe(200);
    const admin = await request(t.app).get(path).set(bearer(ADMIN));
    expect(admin.status).toBe(200);
    expect(admin.body.workspace).toBe(a.id);
    expect((await request(t.app).get(`/_sandbox/workspaces/0123456789ab/export`).set(bearer(ADMIN))).status).toBe(404);
  });
});

describe('Bundle size limit', () => {
  it("When a world's bundle would pass BUNDLE_MAX_BYTES, then its export answers 413 naming the limit", async () => {
    const t = await testApp({ bundleMaxBytes: 1024 * 1024 });
    const ws = await newWorkspace(t);
    const big = Buffer.alloc(600 * 1024, 7);
    const product = (await request(t.app).post('/2024-09/products').set(bearer(ws.tokens.owner)).send({ merchant_id: demo.merchant, sku: 'BIG', title: 'Big' }))
      .body.data.id;
    for (const name of ['a.png', 'b.png']) {
      await request(t.app)
        .post(`/2024-09/products/${product}/images`)
        .set(bearer(ws.tokens.owner))
        .attach('file', Buffer.concat([PNG, big]), { filename: name, contentType: 'image/png' })
        .expect(201);
    }
    const res = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(bearer(ws.tokens.owner));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(
      "The workspace's bundle would be larger than 1 MiB (BUNDLE_MAX_BYTES); delete records or uploads, or raise BUNDLE_MAX_BYTES.",
    );
  });

  it('When a bundle body passes BUNDLE_MAX_BYTES, then the creation answers 413 naming the limit and creates nothing', async () => {
    const t = await testApp({ bundleMaxBytes: 1024 * 1024 });
    const before = t.worlds.workspaceCount;
    const res = await request(t.app)
      .post('/_sandbox/workspaces')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ format: 'x', padding: 'x'.repeat(1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('The request body is larger than 1 MiB (counted after decompression).');
    expect(t.worlds.workspaceCount).toBe(before);
  });

  it('When a small gzip bundle body inflates past BUNDLE_MAX_BYTES, then 413 all the same, and nothing is created', async () => {
    const t = await testApp({ bundleMaxBytes: 1024 * 1024 });
    const inflated = Buffer.from(JSON.stringify({ format: 'x', padding: ' '.repeat(2 * 1024 * 1024) }));
    const body = gzipSync(inflated);
    expect(body.length).toBeLessThan(64 * 1024);
    const url = `http://127.0.0.1:${(t.app.address() as AddressInfo).port}`;
    const res = await fetch(`${url}/_sandbox/workspaces`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      body,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'The request body is larger than 1 MiB (counted after decompression).' });
    expect(t.worlds.workspaceCount).toBe(0);
  });
});
