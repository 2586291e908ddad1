// The replay step of the pipeline (src/pipeline/replay-cache.ts) runs before the body and the validator: a read
// identical to one kept has the kept verdict, and still passes the token and the records first.
import type { RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { createRuntime } from '../../src/runtime.js';
import { createServer } from '../../src/server.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';
import { contract, demo, testApp } from '../helpers/app.js';
import { freshWorld } from '../helpers/test-world.js';

const PRODUCTS = `/2024-09/products?merchant_id=${demo.merchant}&per_page=25`;
const OWNER = { Authorization: `Bearer ${demo.owner.token}` };

/** The sandbox over a fresh world, with a count of the validator's runs (a middleware put before its array). */
async function countingValidator() {
  const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent' };
  const worlds = new Worlds(freshWorld(config.seed), worldsOptions(config));
  const runtime = createRuntime({ worlds, config, contract, log: () => {} });
  const runs = { count: 0 };
  const counting: RequestHandler = (_req, _res, next) => {
    runs.count++;
    next();
  };
  const counted = { ...runtime, compiled: { ...runtime.compiled, validator: [counting, ...runtime.compiled.validator] } };
  const server = createServer(counted, createApp(counted));
  // One origin for all the test's requests: a kept answer is kept per Host.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { app: server, cache: server.responseCache, runs };
}

describe('the replay step, before the body and the validator', () => {
  it('When a read identical to a kept one comes, then the kept answer is sent and the validator does not run again', async () => {
    const t = await countingValidator();
    const first = await request(t.app).get(PRODUCTS).set(OWNER).expect(200);
    expect(t.runs.count).toBe(1);
    const second = await request(t.app).get(PRODUCTS).set(OWNER).expect(200);
    expect(second.text).toBe(first.text);
    expect(t.cache.stats.hits).toBe(1);
    expect(t.runs.count).toBe(1);
    // Another page is another input: checked.
    await request(t.app).get(`${PRODUCTS}&page=2`).set(OWNER).expect(200);
    expect(t.runs.count).toBe(2);
  });

  it('When a kept read named a query field the contract does not, then the replayed answer names it too and the journal keeps the same query', async () => {
    const t = await testApp();
    const url = `${PRODUCTS}&_=1`;
    const first = await request(t.app).get(url).set(t.auth('owner')).expect(200);
    const second = await request(t.app).get(url).set(t.auth('owner')).expect(200);
    expect(t.cache.stats.hits).toBe(1);
    expect(second.headers['sandbox-ignored-fields']).toBe('query._');
    expect(second.headers['sandbox-ignored-fields']).toBe(first.headers['sandbox-ignored-fields']);
    const journal = await request(t.app).get('/_sandbox/requests').set(t.auth('owner')).expect(200);
    type Entry = { id: string; at: string; duration_ms: number; path: string; request: { query: unknown } };
    const [replayed, computed] = (journal.body.data as Entry[]).filter((e) => e.path === '/2024-09/products');
    // The same entry but for its id and times: the query as sent, the ignored fields, the trail, the answer.
    const same = ({ id: _id, at: _at, duration_ms: _d, ...rest }: Entry) => rest;
    expect(same(replayed!)).toEqual(same(computed!));
    expect(computed!.request.query).toMatchObject({ merchant_id: demo.merchant, _: '1' });
  });

  it('When a kept read comes without a token, then 401, and from a user who is not a member, then 403, before any replay', async () => {
    const t = await testApp();
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    await request(t.app).get(PRODUCTS).expect(401);
    await request(t.app).get(PRODUCTS).set(t.auth('rival')).expect(403);
    expect(t.cache.stats.hits).toBe(0);
  });

  it('When a product is created, then the products page shows it at once', async () => {
    const t = await testApp();
    const url = `/2024-09/products?merchant_id=${demo.merchant}&per_page=100`;
    const before = (await request(t.app).get(url).set(t.auth('owner')).expect(200)).body;
    await request(t.app).get(url).set(t.auth('owner')).expect(200);
    expect(t.cache.stats.hits).toBe(1);
    await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant, sku: 'NEW-1', title: 'New' }).expect(201);
    const after = (await request(t.app).get(url).set(t.auth('owner')).expect(200)).body;
    expect(after.meta.total).toBe(before.meta.total + 1);
    expect(after.data.map((p: { sku: string }) => p.sku)).toContain('NEW-1');
  });
});

describe('a kept answer outlives writes to collections it was not made from', () => {
  const CHANNELS = `/2024-09/channels?merchant_id=${demo.merchant}`;

  it('When a product is created, then the products page shows it at once while the channels page is still replayed', async () => {
    const t = await testApp();
    const products = `/2024-09/products?merchant_id=${demo.merchant}&per_page=100`;
    const channels = (await request(t.app).get(CHANNELS).set(t.auth('owner')).expect(200)).text;
    await request(t.app).get(products).set(t.auth('owner')).expect(200);
    await request(t.app).post('/2024-09/products').set(t.auth('owner')).send({ merchant_id: demo.merchant, sku: 'NEW-2', title: 'New' }).expect(201);
    const hits = t.cache.stats.hits;
    expect((await request(t.app).get(CHANNELS).set(t.auth('owner')).expect(200)).text).toBe(channels);
    expect(t.cache.stats.hits).toBe(hits + 1);
    const page = (await request(t.app).get(products).set(t.auth('owner')).expect(200)).body;
    expect(t.cache.stats.hits).toBe(hits + 1);
    expect(page.data.map((p: { sku: string }) => p.sku)).toContain('NEW-2');
  });

  it('When a channel the page lists changes, then the channels page is computed again and shows it', async () => {
    const t = await testApp();
    const before = (await request(t.app).get(CHANNELS).set(t.auth('owner')).expect(200)).body;
    const id = before.data[0].id as string;
    t.world.store.apply(() => t.store.channels.update(id, { name: 'Renamed channel' }));
    const after = (await request(t.app).get(CHANNELS).set(t.auth('owner')).expect(200)).body;
    expect(t.cache.stats.hits).toBe(0);
    expect(after.data.find((c: { id: string }) => c.id === id).name).toBe('Renamed channel');
  });

  it('When the world is reset, then no kept answer of it is replayed, whatever it read', async () => {
    const t = await testApp();
    await request(t.app).get(CHANNELS).set(t.auth('owner')).expect(200);
    t.world.store.load(t.world.store.snapshot());
    await request(t.app).get(CHANNELS).set(t.auth('owner')).expect(200);
    expect(t.cache.stats.hits).toBe(0);
  });
});

// A kept answer is sent without resolving its records again: they are the kept answer's only while the key (world,
// user, URL) and the collections its records read hold. Each case is one step off a kept read.
describe('a replayed read answers for the same records, caller and world only', () => {
  it('When the caller leaves the merchant after a kept read, then the same read answers 403, not the kept page', async () => {
    const t = await testApp();
    await request(t.app).get(PRODUCTS).set(t.auth('member')).expect(200);
    await request(t.app).get(PRODUCTS).set(t.auth('member')).expect(200);
    expect(t.cache.stats.hits).toBe(1);
    await t.world.store.transact(() => {
      const membership = t.store.memberships.where('user_id', demo.member.id).find((m) => m.merchant_id === demo.merchant)!;
      t.store.memberships.remove(membership.id);
    });
    await request(t.app).get(PRODUCTS).set(t.auth('member')).expect(403);
    expect(t.cache.stats.hits).toBe(1);
  });

  it('When the merchant is gone after a kept read, then the same read answers 404', async () => {
    const t = await testApp();
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    await t.world.store.transact(() => void t.store.merchants.remove(demo.merchant));
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(404);
    expect(t.cache.stats.hits).toBe(0);
  });

  it('When another member reads the kept URL, then the answer is computed for that user, and a non-member still gets 403', async () => {
    const t = await testApp();
    const owner = await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    const member = await request(t.app).get(PRODUCTS).set(t.auth('member')).expect(200);
    expect(t.cache.stats.hits).toBe(0);
    expect(member.body).toEqual(owner.body);
    await request(t.app).get(PRODUCTS).set(t.auth('outsider')).expect(403);
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    expect(t.cache.stats.hits).toBe(1);
  });

  it("When a workspace's token reads the URL kept in the default world, then it gets its own world's answer", async () => {
    const t = await testApp();
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { tokens: Record<'owner', string> };
    const wsAuth = { Authorization: `Bearer ${ws.tokens.owner}` };
    await request(t.app).post('/2024-09/products').set(wsAuth).send({ merchant_id: demo.merchant, sku: 'WS-ONLY', title: 'In the workspace' }).expect(201);
    const all = PRODUCTS.replace('per_page=25', 'per_page=100');
    const inWorkspace = (await request(t.app).get(all).set(wsAuth).expect(200)).body;
    const inDefault = (await request(t.app).get(all).set(t.auth('owner')).expect(200)).body;
    expect(inWorkspace.data.map((p: { sku: string }) => p.sku)).toContain('WS-ONLY');
    expect(inDefault.data.map((p: { sku: string }) => p.sku)).not.toContain('WS-ONLY');
    expect(t.cache.stats.hits).toBe(0);
  });

  it('When a read is refused (per_page=0), then it is refused every time and nothing is kept for it', async () => {
    const t = await testApp();
    const refused = PRODUCTS.replace('per_page=25', 'per_page=0');
    const first = await request(t.app).get(refused).set(t.auth('owner')).expect(422);
    const second = await request(t.app).get(refused).set(t.auth('owner')).expect(422);
    expect(second.body).toEqual(first.body);
    expect(t.cache.stats.stored).toBe(0);
    expect(t.cache.stats.hits).toBe(0);
  });

  it('When the sandbox clock moves after a kept read, then the read is computed again', async () => {
    const t = await testApp();
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    t.world.clock.advance(60_000);
    await request(t.app).get(PRODUCTS).set(t.auth('owner')).expect(200);
    expect(t.cache.stats.hits).toBe(0);
  });

  it('When a kept read is replayed, then it carries the same headers as the computed answer but its own request id', async () => {
    const t = await testApp();
    const origin = { Origin: 'https://docs.example' };
    const first = await request(t.app).get(PRODUCTS).set(t.auth('owner')).set(origin).expect(200);
    const second = await request(t.app).get(PRODUCTS).set(t.auth('owner')).set(origin).expect(200);
    expect(t.cache.stats.hits).toBe(1);
    const headers = (res: request.Response) => {
      const { 'x-request-id': id, date: _date, ...rest } = res.headers;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      return rest;
    };
    expect(headers(second)).toEqual(headers(first));
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(second.text).toBe(first.text);
  });
});
