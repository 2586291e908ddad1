import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig, type Config } from '../../src/config.js';
import type { Handlers } from '../../src/areas/handler-map.js';
import { handlers } from '../../src/handlers.js';
import { ok, reply } from '../../src/http/reply.js';
import { createRuntime } from '../../src/runtime.js';
import { createServer, type SandboxServer } from '../../src/server.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';
import { testApp, contract } from '../helpers/app.js';
import { worldModel } from '../../src/areas/world-model.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OWNER = { Authorization: 'Bearer demo-owner-token' };
const MERCHANT_URL = `/2024-09/merchants/${MERCHANT}`;

let server: SandboxServer | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** The server a user starts, over a fresh world, with getMerchant swapped for `getMerchant`. */
async function serve(getMerchant: Handlers['getMerchant'] = handlers.getMerchant, overrides: Partial<Config> = {}) {
  const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent', ...overrides };
  const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: config.seed });
  const worlds = new Worlds(world, worldsOptions(config));
  const runtime = createRuntime({ worlds, config, contract, log: () => {} });
  server = createServer(runtime, createApp(runtime, { ...handlers, getMerchant }));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cache = server.responseCache;
  const get = async (path: string, headers: Record<string, string> = OWNER) => {
    const res = await fetch(url + path, { headers });
    const kept = [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
    return { status: res.status, text: await res.text(), headers: new Map(kept) };
  };
  return { world, cache, get };
}

describe('answers the adapter marks replayable', () => {
  it('When a handler only reads its store and input, then its answer is replayed', async () => {
    const { cache, get } = await serve();
    await get(MERCHANT_URL);
    await get(MERCHANT_URL);
    expect(cache.stats).toMatchObject({ stored: 1, hits: 1 });
  });

  it('When a read writes to the store, then its answer is never replayed', async () => {
    const { cache, get } = await serve(({ bound }, ctx) => {
      ctx.store.merchants.update(bound.merchant.id, { name: 'Touched' });
      return ok({ data: ctx.store.merchants.get(bound.merchant.id)! });
    });
    expect((await get(MERCHANT_URL)).status).toBe(200);
    await get(MERCHANT_URL);
    expect(cache.stats).toMatchObject({ stored: 0, hits: 0 });
  });

  it('When a read looks at the clock, then its answer is never replayed', async () => {
    const { cache, get } = await serve(({ bound }, ctx) => {
      ctx.clock.now();
      return ok({ data: bound.merchant });
    });
    expect((await get(MERCHANT_URL)).status).toBe(200);
    await get(MERCHANT_URL);
    expect(cache.stats).toMatchObject({ stored: 0, hits: 0 });
  });

  it('When a read uses what the world keeps beside its store (uploads, retailer), then its answer is never replayed', async () => {
    for (const resource of ['uploads', 'retailer'] as const) {
      const { cache, get } = await serve(({ bound }, ctx) => {
        void ctx[resource];
        return ok({ data: bound.merchant });
      });
      expect((await get(MERCHANT_URL)).status).toBe(200);
      await get(MERCHANT_URL);
      expect(cache.stats).toMatchObject({ stored: 0, hits: 0 });
      await new Promise((resolve) => server!.close(resolve));
    }
  });

  it('When a read looks at the other worlds (the registry), then its answer is never replayed', async () => {
    const { cache, get } = await serve(({ bound }, ctx) => {
      void ctx.worlds;
      return ok({ data: bound.merchant });
    });
    expect((await get(MERCHANT_URL)).status).toBe(200);
    await get(MERCHANT_URL);
    expect(cache.stats).toMatchObject({ stored: 0, hits: 0 });
  });

  it('When a read answers something other than 2xx, then its answer is never replayed', async () => {
    const { cache, get } = await serve(() => reply(404, { message: 'Not found.' }) as never);
    expect((await get(MERCHANT_URL)).status).toBe(404);
    await get(MERCHANT_URL);
    expect(cache.stats).toMatchObject({ stored: 0, hits: 0 });
  });

  it('When the sandbox clock moves between two reads, then the cached answer is not served', async () => {
    const { world, cache, get } = await serve();
    await get(MERCHANT_URL);
    await get(MERCHANT_URL);
    expect(cache.stats.hits).toBe(1);
    world.clock.advance(60_000);
    await get(MERCHANT_URL);
    expect(cache.stats).toMatchObject({ hits: 1, stored: 2 });
    await get(MERCHANT_URL);
    expect(cache.stats.hits).toBe(2);
  });

  it('When a cross-origin read repeats, then it is served from the cache with the CORS headers the slow path gives', async () => {
    const { cache, get } = await serve();
    const origin = { ...OWNER, Origin: 'http://localhost:3000' };
    const computed = await get(MERCHANT_URL, origin);
    const cached = await get(MERCHANT_URL, origin);
    expect(cache.stats.hits).toBe(1);
    expect(cached).toEqual(computed);
    expect(cached.headers.get('access-control-allow-origin')).toBe('*');
    expect(cached.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
  });

  it('When origins are listed, then a cached answer echoes an allowed origin and grants nothing to another', async () => {
    const { cache, get } = await serve(undefined, { corsOrigins: ['http://docs.example'] });
    const allowed = { ...OWNER, Origin: 'http://docs.example' };
    const computed = await get(MERCHANT_URL, allowed);
    const cached = await get(MERCHANT_URL, allowed);
    const refused = await get(MERCHANT_URL, { ...OWNER, Origin: 'http://evil.example' });
    expect(cache.stats.hits).toBe(2);
    expect(cached).toEqual(computed);
    expect(cached.headers.get('access-control-allow-origin')).toBe('http://docs.example');
    expect(cached.headers.get('vary')).toBe('Origin');
    expect(refused.headers.has('access-control-allow-origin')).toBe(false);
    // What CORS granted one Origin is kept per Origin: the allowed one still gets its own after the refused one.
    const again = await get(MERCHANT_URL, allowed);
    expect(cache.stats.hits).toBe(3);
    expect(again.headers.get('access-control-allow-origin')).toBe('http://docs.example');
  });

  it('When a request is not a GET, then it is never answered from the cache, even on a URL whose read is cached', async () => {
    const t = await testApp();
    await request(t.app).get(MERCHANT_URL).set(OWNER).expect(200);
    await request(t.app).get(MERCHANT_URL).set(OWNER).expect(200);
    expect(t.cache.stats).toMatchObject({ stored: 1, hits: 1 });
    const renamed = await request(t.app).put(MERCHANT_URL).set(OWNER).send({ name: 'Renamed Outfitters' });
    expect(renamed.status).toBe(204);
    expect(t.cache.stats.hits).toBe(1);
    expect((await request(t.app).get(MERCHANT_URL).set(OWNER)).body.data.name).toBe('Renamed Outfitters');
    expect(t.cache.stats.hits).toBe(1);
  });

  it('When the control plane advances the clock between two reads, then the cached answer is not served', async () => {
    const t = await testApp();
    await request(t.app).get(MERCHANT_URL).set(OWNER).expect(200);
    await request(t.app).post('/_sandbox/clock/advance').send({ hours: 1 }).expect(200);
    await request(t.app).get(MERCHANT_URL).set(OWNER).expect(200);
    expect(t.cache.stats).toMatchObject({ hits: 0, stored: 2 });
  });
});
