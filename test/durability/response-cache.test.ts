import { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { responseCacheOf } from '../../src/server.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import type { StartSandboxOptions } from '../../src/start-sandbox.js';
import { contract } from '../helpers/app.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const OWNER = { Authorization: 'Bearer demo-owner-token' };
const MEMBER = { Authorization: 'Bearer demo-member-token' };
const PAGE = `/2024-09/products?merchant_id=${MERCHANT}&per_page=25`;

let sandbox: RunningSandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function start(options: StartSandboxOptions = {}) {
  // A test that provokes a 500 expects it: the error log stays out of the test output.
  sandbox = await startSandbox({ contract, store: 'memory', logLevel: 'silent', errorLog: () => {}, ...options });
  const cache = responseCacheOf(sandbox.server)!;
  const get = async (path: string, headers: Record<string, string> = OWNER) => {
    const res = await fetch(sandbox!.url + path, { headers });
    // Each answer has its own date and request id; everything else a cached answer repeats.
    const headerList = [...res.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id');
    return { status: res.status, text: await res.text(), headers: headerList, requestId: res.headers.get('x-request-id') };
  };
  return { sandbox, cache, get };
}

describe('answers kept by the replay step of the pipeline', () => {
  it('When the same page is read twice, then the second answer comes from the cache, byte for byte the computed one', async () => {
    const { cache, get } = await start();
    const first = await get(PAGE);
    expect(first.status).toBe(200);
    expect(cache.stats).toMatchObject({ hits: 0, stored: 1 });
    const second = await get(PAGE);
    expect(cache.stats.hits).toBe(1);
    expect({ ...second, requestId: undefined }).toEqual({ ...first, requestId: undefined });
    expect(second.requestId).not.toBe(first.requestId);
  });

  it('When two workspaces read the same unchanged page, then their cached answers share one body until one changes', async () => {
    const { sandbox, cache, get } = await start();
    const ownerOf = async () => {
      const res = await fetch(`${sandbox.url}/_sandbox/workspaces`, { method: 'POST' });
      return { Authorization: `Bearer ${(await res.json()).data.tokens.owner}` };
    };
    const [a, b] = [await ownerOf(), await ownerOf()];
    const first = await get(PAGE, a);
    const second = await get(PAGE, b);
    expect(second.text).toBe(first.text);
    expect(cache.stats).toMatchObject({ stored: 2, entries: 2, bodies: 1 });
    // A write in one workspace: its next read is computed again, with other bytes, and kept apart.
    const created = await fetch(`${sandbox.url}/2024-09/products`, {
      method: 'POST',
      headers: { ...a, 'Content-Type': 'application/json' },
      body: JSON.stringify({ merchant_id: MERCHANT, sku: 'SHARED-1', title: 'Only in workspace a' }),
    });
    expect(created.status).toBe(201);
    const changed = await get(PAGE, a);
    expect(changed.text).not.toBe(first.text);
    expect(cache.stats).toMatchObject({ entries: 2, bodies: 2 });
    expect((await get(PAGE, b)).text).toBe(first.text);
  });

  it('When a product is created between two reads, then the next read shows it (a write invalidates)', async () => {
    const { sandbox, cache, get } = await start();
    const before = JSON.parse((await get(PAGE)).text);
    await get(PAGE);
    expect(cache.stats.hits).toBe(1);
    const res = await fetch(`${sandbox.url}/2024-09/products`, {
      method: 'POST',
      headers: { ...OWNER, 'Content-Type': 'application/json' },
      body: JSON.stringify({ merchant_id: MERCHANT, sku: 'CACHE-1', title: 'Cache test' }),
    });
    expect(res.status).toBe(201);
    const { data: created } = await res.json();
    const after = JSON.parse((await get(`/2024-09/products?merchant_id=${MERCHANT}&per_page=100`)).text);
    expect(after.data.map((p: { id: string }) => p.id)).toContain(created.id);
    const again = JSON.parse((await get(PAGE)).text);
    expect(again.meta.total).toBe(before.meta.total + 1);
    expect(cache.stats.hits).toBe(1);
  });

  it('When a handler answers what the contract refuses, then it is answered 500 every time and never cached', async () => {
    const errors: string[] = [];
    const { sandbox, cache, get } = await start({ errorLog: (line) => errors.push(line) });
    const store = sandbox.worlds.defaultWorld.store;
    // A stored merchant with a field the contract does not know: getMerchant hands the record out as is.
    store.apply(() => store.collections.merchants.update(MERCHANT, { leaked: 'secret' } as never));
    for (let i = 0; i < 3; i++) expect((await get(`/2024-09/merchants/${MERCHANT}`)).status).toBe(500);
    // Each refusal is logged as the bug it is, once per answer, naming what the contract refused.
    expect(errors).toHaveLength(3);
    for (const line of errors) expect(line).toMatch(/500 on GET .*must NOT have additional properties/);
    expect(cache.stats).toMatchObject({ hits: 0, stored: 0 });
    // Every answer the cache holds was one the response validator let through.
    expect((await get('/2024-09/users/current')).status).toBe(200);
    expect(cache.stats.stored).toBe(1);
  });

  it('When the store changes without a request (a reset), then the cached answer is not served', async () => {
    const { sandbox, cache, get } = await start();
    await get(`/2024-09/merchants/${MERCHANT}`);
    const store = sandbox.worlds.defaultWorld.store;
    store.apply(() => store.collections.merchants.update(MERCHANT, { name: 'Renamed Outfitters' }));
    const after = JSON.parse((await get(`/2024-09/merchants/${MERCHANT}`)).text);
    expect(after.data.name).toBe('Renamed Outfitters');
    expect(cache.stats.hits).toBe(0);
    await sandbox.reset();
    const reseeded = JSON.parse((await get(`/2024-09/merchants/${MERCHANT}`)).text);
    expect(reseeded.data.name).toBe('Demo Outfitters');
    expect(cache.stats.hits).toBe(0);
  });

  it('When a cached page is asked for with an unknown token, then the answer is 401, not the cached page', async () => {
    const { cache, get } = await start();
    await get(PAGE);
    expect((await get(PAGE, { Authorization: 'Bearer nobody' })).status).toBe(401);
    expect((await get(PAGE, {})).status).toBe(401);
    expect(cache.stats.hits).toBe(0);
  });

  it('When two users read the same URL, then each gets their own answer', async () => {
    const { get } = await start();
    const owner = JSON.parse((await get('/2024-09/users/current')).text);
    await get('/2024-09/users/current');
    const member = JSON.parse((await get('/2024-09/users/current', MEMBER)).text);
    expect(owner.data.id).not.toBe(member.data.id);
    expect(JSON.parse((await get('/2024-09/users/current')).text)).toEqual(owner);
  });

  it('When a request carries Prefer, then it always takes the slow path', async () => {
    const { cache, get } = await start();
    await get(PAGE);
    await get(PAGE, { ...OWNER, Prefer: 'code=200' });
    expect(cache.stats.hits).toBe(0);
  });

  it('When latency is configured, then a replayed answer waits for it as a computed one does', async () => {
    const { cache, get } = await start({ latencyMs: 150 });
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      expect((await get(PAGE)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    }
    expect(cache.stats).toMatchObject({ hits: 1, stored: 1 });
  });

  it('When a kept page is asked for again, then every check before the handler still answers first: 401, 404, 403, 422', async () => {
    const { cache, get } = await start();
    const merchant = `/2024-09/merchants/${MERCHANT}`;
    await get(merchant);
    expect((await get(merchant)).status).toBe(200);
    expect(cache.stats.hits).toBe(1);
    expect((await get(merchant, { Authorization: 'Bearer nobody' })).status).toBe(401);
    expect((await get('/2024-09/merchants/aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa0')).status).toBe(404);
    expect((await get(merchant, { Authorization: 'Bearer demo-rival-token' })).status).toBe(403);
    expect((await get(`${PAGE}&per_page=0`)).status).toBe(422);
    expect(cache.stats.hits).toBe(1);
  });

  it("When a page is computed, kept and replayed, then nothing replaced the response's write or end, nor the messages' prototypes", async () => {
    const { sandbox, cache } = await start();
    const seen: { ownWrite: boolean; ownEnd: boolean; response: boolean; request: boolean }[] = [];
    sandbox.server.prependListener('request', (req, res) =>
      res.once('finish', () =>
        seen.push({
          ownWrite: Object.hasOwn(res, 'write'),
          ownEnd: Object.hasOwn(res, 'end'),
          // Born as Node's own classes (Express gives them its prototypes, which keep Node's constructors).
          response: res.constructor === ServerResponse,
          request: req.constructor === IncomingMessage,
        }),
      ),
    );
    for (let i = 0; i < 2; i++) expect((await fetch(sandbox.url + PAGE, { headers: OWNER })).status).toBe(200);
    expect(cache.stats.hits).toBe(1);
    expect(seen).toEqual([
      { ownWrite: false, ownEnd: false, response: true, request: true },
      { ownWrite: false, ownEnd: false, response: true, request: true },
    ]);
  });

  it('When a read depends on the clock, then it is never cached', async () => {
    const { cache, get } = await start();
    expect((await get('/2024-09/marketplaces/catalog-items?per_page=5')).status).toBe(200);
    await get('/2024-09/marketplaces/catalog-items?per_page=5');
    expect(cache.stats).toMatchObject({ hits: 0, stored: 0 });
  });

  it('When an answer comes from the cache, then the journal and the coverage report still see it', async () => {
    const { sandbox, cache, get } = await start();
    await get(PAGE);
    await get(PAGE);
    expect(cache.stats.hits).toBe(1);
    const listed = sandbox.observations.journal.list({ operationId: 'listProducts' });
    expect(listed).toHaveLength(2);
    expect(listed.map((e) => e.status)).toEqual([200, 200]);
    expect(listed[0].response.body).toEqual(listed[1].response.body);
    expect(listed[0].request.headers.authorization).not.toContain('demo-owner-token');
    const report = sandbox.observations.coverageOf('default')!.report();
    expect(report.operations.find((o) => o.operation_id === 'listProducts')!.answered).toContain('200');
  });

  it('When a read with a cache-buster is answered from the cache, then it names the ignored parameter and the journal records it', async () => {
    const { sandbox, cache, get } = await start();
    const busted = `${PAGE}&_=1`;
    const first = await get(busted);
    const second = await get(busted);
    expect(cache.stats.hits).toBe(1);
    expect({ ...second, requestId: undefined }).toEqual({ ...first, requestId: undefined });
    expect(new Map(second.headers).get('sandbox-ignored-fields')).toBe('query._');
    const listed = sandbox.observations.journal.list({ operationId: 'listProducts' });
    expect(listed.map((e) => e.request.ignored)).toEqual([['query._'], ['query._']]);
    expect(listed.map((e) => e.request.query._)).toEqual(['1', '1']);
  });
});
