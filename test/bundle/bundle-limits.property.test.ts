// Bundles at and past every limit a loaded world keeps (issue 31): one past any limit is refused whole (422, or
// 413 for upload bytes) and changes nothing; one at every limit it names loads, and every read of its world
// answers promptly, as a world the API built at those limits does.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_PENDING_IMPORT_IDENTIFIERS, MAX_PENDING_IMPORTS_PER_MERCHANT } from '../../src/areas/marketplaces/import-limits.js';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { MAX_SCRAPING_REQUESTS_PER_MERCHANT } from '../../src/areas/sourcing/scraping-limits.js';
import { BUNDLE_MAX_DEPTH } from '../../src/sandbox/check-bundle.js';
import { MAX_IDS_PER_SALT } from '../../src/world.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { added, changedSeeded, emptyBundle, journalEntry, nested, queuedImports, scrapingRequests, seeded, seededScrapingRequests } from './hostile-bundles.js';
import { bearer, type Bundle } from './session.js';

const JOURNAL_SIZE = 12;
const MAX_RECORDS = 90;
/** What one read of a world loaded at the limits may take, generous for a loaded 2-core machine. */
const READ_BOUND_MS = 2_000;

type Limit = { name: string; apply: (b: Bundle, past: boolean, n: number) => void };

const item = seeded('catalog_items');
const product = seeded('products');

/** Each limit, applied at it (`past` false) or one step or more past it (`n` picks how far). */
const LIMITS: Limit[] = [
  {
    name: 'seller_count',
    apply: (b, past, n) =>
      void changedSeeded(
        b,
        'catalog_items',
        (r) => void (r.seller_count = past ? 41 + n * 1_000_003 : 1 + (n % 40)),
        (r) => r.id === item.id,
      ),
  },
  {
    name: 'title',
    apply: (b, past, n) =>
      void changedSeeded(
        b,
        'products',
        (r) => void (r.title = 'x'.repeat(past ? 256 + (n % 2000) : 1 + (n % 255))),
        (r) => r.id === product.id,
      ),
  },
  {
    name: 'scraping requests per merchant',
    apply: (b, past, n) =>
      void added(b, 'scraping_requests', scrapingRequests(MAX_SCRAPING_REQUESTS_PER_MERCHANT - seededScrapingRequests() + (past ? 1 + (n % 5) : 0))),
  },
  {
    name: 'applied attempts',
    apply: (b, past, n) => {
      const [r] = scrapingRequests(1);
      // A request of another merchant, so the demo merchant's count stays its own limit's.
      Object.assign(r!, { merchant_id: demo.rivalMerchant, supplier_id: seeded('suppliers', (s) => s.merchant_id === demo.rivalMerchant).id });
      r!.max_attempts = 1 + (n % 99);
      r!.applied_attempts = (r!.max_attempts as number) + (past ? 1 : 0);
      added(b, 'scraping_requests', [r!]);
    },
  },
  {
    name: 'queued imports per merchant',
    apply: (b, past, n) => void added(b, 'catalog_item_imports', queuedImports(demo.merchant, MAX_PENDING_IMPORTS_PER_MERCHANT + (past ? 1 + (n % 2) : 0), 1)),
  },
  {
    // After the queued imports (LIMITS order): fills what the bundle's pending imports ask for to the cap, or past it.
    name: 'pending import identifiers',
    apply: (b, past) => {
      let missing = MAX_PENDING_IMPORT_IDENTIFIERS - pendingIdentifiersOf(b) + (past ? 1 : 0);
      while (missing > 0) {
        const merchant = newMerchant(b);
        for (let i = 0; i < MAX_PENDING_IMPORTS_PER_MERCHANT && missing > 0; i++) {
          const count = Math.min(100, missing);
          added(b, 'catalog_item_imports', queuedImports(merchant, 1, count));
          missing -= count;
        }
      }
    },
  },
  {
    name: 'ids.issued',
    apply: (b, past, n) => void (b.ids = { ...(b.ids as object), issued: past ? MAX_IDS_PER_SALT + 1 + n : MAX_IDS_PER_SALT - (n % 1000) }),
  },
  { name: 'nesting', apply: (b, past) => void (b.journal as unknown[]).push(journalEntry(-1, nested(BUNDLE_MAX_DEPTH - 4 + (past ? 1 : 0)))) },
  {
    // After the nesting (LIMITS order): fills the journal to JOURNAL_SIZE, or past it.
    name: 'journal entries',
    apply: (b, past, n) => {
      const journal = b.journal as unknown[];
      for (let i = journal.length; i < JOURNAL_SIZE + (past ? 1 + (n % 3) : 0); i++) journal.push(journalEntry(i, nested(1)));
    },
  },
  {
    name: 'coverage statuses',
    apply: (b, past) => void (b.coverage = { operations: [{ operation_id: 'createMerchant', answered: past ? ['201', '201'] : ['201'], undocumented: [] }] }),
  },
  {
    name: 'upload key',
    apply: (b, past) => {
      const image = seeded('product_images');
      const filename = past ? '..\\evil.png' : 'ok.png';
      changedSeeded(
        b,
        'product_images',
        (r) => Object.assign(r, { storage_key: `product-images/${image.id}/${filename}`, filename }),
        (r) => r.id === image.id,
      );
    },
  },
];

/** A merchant the bundle adds, owned by the demo owner as createMerchant makes one (a merchant keeps an owner). */
function newMerchant(b: Bundle): string {
  const merchant = { ...seeded('merchants'), id: randomUUID(), name: 'Another merchant' };
  added(b, 'merchants', [merchant]);
  added(b, 'memberships', [{ ...seeded('memberships', (m) => m.role === 'owner'), id: randomUUID(), merchant_id: merchant.id, user_id: demo.owner.id }]);
  return merchant.id;
}

/** Identifiers the bundle's pending imports ask for. */
const pendingIdentifiersOf = (b: Bundle) =>
  (b.changes.catalog_item_imports?.added ?? []).reduce((n, r) => n + (r.processed === false ? (r.identifiers as unknown[]).length : 0), 0);

const addedCount = (b: Bundle) => Object.values(b.changes).reduce((n, c) => n + c.added.length, 0);

describe('bundles at and past every limit', () => {
  let t: TestApp;
  let valid: Bundle;

  beforeAll(async () => {
    t = await testApp({ journalSize: JOURNAL_SIZE, workspaceMaxRecords: MAX_RECORDS });
    valid = await emptyBundle(t.app);
  }, 60_000);

  /** Every read the loaded world's limits bear on, each timed; all must answer 200 within READ_BOUND_MS. */
  async function readsOf(ws: { id: string; tokens: { owner: string } }, names: string) {
    const auth = bearer(ws.tokens.owner);
    const paths = [
      `/2024-09/marketplaces/catalog-items/${item.id}/current-offers?per_page=100`,
      `/2024-09/marketplaces/catalog-items/${item.id}`,
      `/2024-09/products/${product.id}`,
      `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-requests?per_page=100`,
      `/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts?per_page=1`,
      `/2024-09/marketplaces/catalog-item-imports?merchant_id=${demo.merchant}`,
      `/2024-09/products/${seeded('product_images').product_id}/images`,
      '/_sandbox/requests',
      `/_sandbox/workspaces/${ws.id}/export`,
    ];
    for (const path of paths) {
      const started = performance.now();
      const res = await request(t.app).get(path).set(auth);
      const took = performance.now() - started;
      expect(res.status, `${names}: GET ${path}: ${res.text.slice(0, 300)}`).toBe(200);
      expect(took, `${names}: GET ${path}`).toBeLessThan(READ_BOUND_MS);
    }
  }

  it('When a bundle is at or past any set of limits, then past one it is refused whole, and at them its world reads promptly', async () => {
    const outcomes = { loaded: 0, refused: 0 };
    // Past a limit one time in five, so bundles at every limit they name come about as often as refused ones.
    const pastOne = fc.nat({ max: 4 }).map((x) => x === 0);
    const choice = fc.record({ limit: fc.constantFrom(...LIMITS), past: pastOne, n: fc.nat({ max: 1_000_000 }) });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(choice, { minLength: 1, maxLength: 5, selector: (c) => c.limit.name }), pastOne, async (choices, quotaPast) => {
        const b = structuredClone(valid);
        const ordered = [...choices].sort((x, y) => LIMITS.indexOf(x.limit) - LIMITS.indexOf(y.limit));
        for (const { limit, past, n } of ordered) limit.apply(b, past, n);
        // The record quota last, over what the other limits added: filled to it, or one past it.
        const room = MAX_RECORDS - addedCount(b);
        if (room >= 0)
          added(
            b,
            'suppliers',
            Array.from({ length: room + (quotaPast ? 1 : 0) }, (_, i) => ({
              ...seeded('suppliers', (r) => r.merchant_id === demo.merchant),
              id: randomUUID(),
              name: `Filler ${i}`,
            })),
          );
        const past = quotaPast || room < 0 || choices.some((c) => c.past);
        const names = [...choices.map((c) => `${c.limit.name} ${c.past ? 'past' : 'at'} (${c.n})`), `quota ${quotaPast ? 'past' : 'at'}`].join(', ');
        const before = { workspaces: t.worlds.workspaceCount, rings: t.runtime.observations.journal.usage().workspaces.size };
        const res = await request(t.app).post('/_sandbox/workspaces').send(b);
        if (past) {
          outcomes.refused++;
          expect([413, 422], `${names}: ${res.status} ${res.text.slice(0, 300)}`).toContain(res.status);
          expect(t.worlds.workspaceCount, names).toBe(before.workspaces);
          expect(t.runtime.observations.journal.usage().workspaces.size, names).toBe(before.rings);
        } else {
          outcomes.loaded++;
          expect(res.status, `${names}: ${res.text.slice(0, 400)}`).toBe(201);
          await readsOf(res.body.data, names);
          await request(t.app).delete(`/_sandbox/workspaces/${res.body.data.id}`).set(bearer(res.body.data.tokens.owner)).expect(204);
        }
      }),
      { numRuns: 40 },
    );
    expect(outcomes.loaded).toBeGreaterThan(5);
    expect(outcomes.refused).toBeGreaterThan(5);
    expect(t.errors).toEqual([]);
  }, 300_000);
});
