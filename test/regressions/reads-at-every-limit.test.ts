// A world filled to every limit the API allows, then every GET operation read: no read costs more than its page,
// and another client's health check is not held up meanwhile. The limits filled are the ones whose data a read
// walks: a merchant's scraping requests (hourly, the most attempts, all of them ended, so the first read catches
// up on every attempt), its queued catalog item imports with the most identifiers, and the catalog item with the
// most current offers. Timings are medians of a few calls on a real server over loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { MAX_SELLER_COUNT } from '../../src/areas/marketplaces/catalog-records.js';
import { contractOperations, paramsOf } from '../helpers/contract-requests.js';
import { exampleCall } from '../helpers/example-requests.js';

/** The bound for one read, and for the health check beside it, on a quiet machine. */
const BOUND_MS = 50;
/**
 * An idle sandbox's health check on a quiet machine. A loaded machine (a parallel test run) slows every answer
 * alike, so the bounds are scaled by how much slower the idle health check is in this run: the same reads judged
 * against a baseline measured beside them, never a figure that moves with the machine.
 */
const QUIET_HEALTH_MS = 2;
/** Timed calls per operation after its first (which compiles its checks and catches up). */
const CALLS = 3;
/**
 * The export reads the whole world, not a page: its cost is bounded by the workspace quotas and kept off the event
 * loop, which the export tests of test/hosted judge (health during exports of full workspaces). It is called here
 * all the same, so a world at every limit is shown to export.
 */
const WHOLE_WORLD_READS = new Set(['exportSandboxWorkspace']);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The URL of an operation's example call: path parameters filled in, query parameters appended. */
function exampleUrl(path: string, parameters: Record<string, unknown>, inPath: ReadonlySet<string>): string {
  const query = new URLSearchParams();
  let url = path;
  for (const [name, value] of Object.entries(parameters)) {
    if (inPath.has(name)) url = url.replace(`{${name}}`, encodeURIComponent(String(value)));
    else query.set(name, String(value));
  }
  const q = query.toString();
  return q ? `${url}?${q}` : url;
}

describe('Reads on a world at every limit', () => {
  let sandbox: RunningSandbox;
  let send: (method: string, path: string, body?: unknown) => Promise<{ status: number; ms: number; body: unknown }>;

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    await sandbox.warmedUp;
    send = async (method, path, body) => {
      const started = performance.now();
      const res = await fetch(`${sandbox.url}${path}`, {
        method,
        headers: { Authorization: `Bearer ${sandbox.tokens.owner}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const parsed = (await res.json().catch(() => undefined)) as unknown;
      return { status: res.status, ms: performance.now() - started, body: parsed };
    };
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
  });

  it('When a merchant holds the most scraping requests, imports and offers the API allows, then every GET answers within 50 ms while health stays under 50 ms', async () => {
    const example = (operationId: string) => exampleCall(contractOperations.find((op) => op.operationId === operationId)!).parameters;
    const { supplier } = example('listScrapingAttempts');
    const { merchant_id, marketplace_id } = exampleCall(contractOperations.find((op) => op.operationId === 'createCatalogItemImport')!).requestBody as Record<
      string,
      string
    >;

    // Scraping requests up to the merchant's limit: each hourly, with the most attempts.
    let scraping = 0;
    for (let i = 0; i < 30; i++) {
      const res = await send('POST', `/2024-09/suppliers/${String(supplier)}/scraping-requests`, {
        source_url: `https://supplier.example/catalogue/${i}`,
        frequency: 'hourly',
        max_attempts: 100,
      });
      if (res.status !== 201) break;
      scraping++;
    }
    expect(scraping).toBeGreaterThan(0);
    // Imports up to the merchant's limit of queued ones, each with the most identifiers a create takes.
    let imports = 0;
    for (let i = 0; i < 5; i++) {
      const identifiers = Array.from({ length: 100 }, (_, k) => ({ type: 'GTIN', value: `0${i}${String(k).padStart(12, '0')}` }));
      const res = await send('POST', '/2024-09/marketplaces/catalog-item-imports', { merchant_id, marketplace_id, identifiers });
      if (res.status !== 201) {
        expect(imports, JSON.stringify(res.body)).toBeGreaterThan(0);
        break;
      }
      imports++;
    }
    expect(imports).toBeGreaterThan(0);
    // The catalog item of the examples gets the most current offers a catalog item can have.
    const { marketplace_catalog_item: catalog_item } = example('listCatalogItemCurrentOffers');
    const { store } = sandbox.worlds.defaultWorld;
    await store.transact(() => store.collections.catalog_items.update(String(catalog_item), { seller_count: MAX_SELLER_COUNT }));
    // Every attempt has ended: the first read of the supplier's scraping state applies all of them.
    expect((await send('POST', '/_sandbox/clock/advance', { hours: 101 })).status).toBe(200);

    const idle: number[] = [];
    for (let i = 0; i < 15; i++) idle.push((await send('GET', '/_sandbox/health')).ms);
    const scale = Math.max(1, median(idle) / QUIET_HEALTH_MS);
    const bound = BOUND_MS * scale;

    // Another client's health checks, one after another, for as long as the reads run.
    const health: number[] = [];
    let reading = true;
    const poller = (async () => {
      while (reading) health.push((await send('GET', '/_sandbox/health')).ms);
    })();

    const slow: string[] = [];
    const timings: Record<string, { first: number; median: number }> = {};
    try {
      for (const op of contractOperations) {
        if (op.method.toUpperCase() !== 'GET') continue;
        const call = exampleCall(op);
        const inPath = new Set(
          paramsOf(op)
            .filter((p) => p.in === 'path')
            .map((p) => p.name),
        );
        const url = exampleUrl(op.path, call.parameters, inPath);
        const first = await send('GET', url);
        expect(first.status, `${op.operationId} ${url}`).toBeLessThan(500);
        const times: number[] = [];
        for (let i = 0; i < CALLS; i++) times.push((await send('GET', url)).ms);
        if (WHOLE_WORLD_READS.has(op.operationId)) continue;
        timings[op.operationId] = { first: first.ms, median: median(times) };
        if (median(times) > bound) slow.push(`${op.operationId}: ${median(times).toFixed(1)} ms (bound ${bound.toFixed(0)} ms)`);
      }
    } finally {
      reading = false;
      await poller;
    }
    expect(slow, JSON.stringify(timings)).toEqual([]);
    expect(Object.keys(timings).length).toBeGreaterThan(20);
    expect(median(health), `health ${JSON.stringify(health.map((ms) => Math.round(ms)))}`).toBeLessThan(bound);
    // The first read of each operation (its checks compiled, the scraping attempts caught up) is bounded too.
    const firstSlow = Object.entries(timings)
      .filter(([, t]) => t.first > 4 * bound)
      .map(([id, t]) => `${id}: ${t.first.toFixed(1)} ms (bound ${(4 * bound).toFixed(0)} ms)`);
    expect(firstSlow, JSON.stringify(timings)).toEqual([]);
  }, 120_000);

  it('When a stored catalog item claims more sellers than a catalog item can have, then its offers are read up to that most, whatever the stored count', async () => {
    const { marketplace_catalog_item: catalog_item } = exampleCall(
      contractOperations.find((op) => op.operationId === 'listCatalogItemCurrentOffers')!,
    ).parameters;
    // Written past every gate, as a store the gates never saw could hold it.
    const { store } = sandbox.worlds.defaultWorld;
    await store.transact(() => store.collections.catalog_items.update(String(catalog_item), { seller_count: 100_000_000 }));
    const res = await send('GET', `/2024-09/marketplaces/catalog-items/${String(catalog_item)}/current-offers?per_page=1`);
    expect(res.status).toBe(200);
    expect((res.body as { meta: { total: number } }).meta.total).toBe(MAX_SELLER_COUNT);
    expect(res.ms).toBeLessThan(1000);
  });
});
