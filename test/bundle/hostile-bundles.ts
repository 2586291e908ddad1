// Bundles built at and past the limits a loaded world keeps, from a valid bundle and the seeded records of the
// test sandboxes' seed: what the gate tests (hosted, property) load.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expect } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { importSchedule } from '../../src/areas/marketplaces/catalog-import-rules.js';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { testBases } from '../helpers/test-world.js';
import { demo } from '../helpers/app.js';
import type { Bundle } from './session.js';

type Rec = Record<string, unknown> & { id: string };
type App = Parameters<typeof request>[0];

const base = () => testBases.of(defaultConfig.seed).collections as unknown as Record<string, { all(): Rec[] }>;

/** A copy of a seeded record of a collection (the first one `where` accepts). */
export function seeded(collection: string, where: (r: Rec) => boolean = () => true): Rec {
  return structuredClone(base()[collection]!.all().find(where)!);
}

/** How many seeded records of a collection `where` accepts. */
export const seededCount = (collection: string, where: (r: Rec) => boolean = () => true): number => base()[collection]!.all().filter(where).length;

/** A valid bundle of a fresh workspace (no changes), exported with its owner's token. */
export async function emptyBundle(app: App): Promise<Bundle> {
  const ws = (await request(app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
  const res = await request(app)
    .get(`/_sandbox/workspaces/${ws.id}/export`)
    .set({ Authorization: `Bearer ${ws.tokens.owner}` });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return res.body as Bundle;
}

const changesOf = (b: Bundle, collection: string) => (b.changes[collection] ??= { added: [], changed: [], deleted: [] });

/** The bundle with a seeded record changed by `edit`. */
export function changedSeeded(b: Bundle, collection: string, edit: (r: Rec) => void, where?: (r: Rec) => boolean): Bundle {
  const record = seeded(collection, where);
  edit(record);
  changesOf(b, collection).changed.push(record);
  return b;
}

/** The bundle with records added. */
export function added(b: Bundle, collection: string, records: Rec[]): Bundle {
  changesOf(b, collection).added.push(...records);
  return b;
}

/** Scraping requests of the demo merchant's demo supplier, beside those seeded, as the API makes them. */
export function scrapingRequests(count: number): Rec[] {
  const template = seeded('scraping_requests');
  return Array.from({ length: count }, () => ({
    ...template,
    id: randomUUID(),
    merchant_id: demo.merchant,
    supplier_id: DEMO_SUPPLIER_ID,
    frequency: 'hourly',
    max_attempts: 100,
    applied_attempts: 0,
  }));
}

/** Scraping requests the demo merchant has seeded. */
export const seededScrapingRequests = () => seededCount('scraping_requests', (r) => r.merchant_id === demo.merchant);

/** Queued catalog item imports of a merchant, each of `identifiers` identifiers, scheduled as their creation makes them. */
export function queuedImports(merchant: string, count: number, identifiers: number): Rec[] {
  const template = seeded('catalog_item_imports');
  const createdAt = new Date('2024-09-01T00:00:00.000Z');
  return Array.from({ length: count }, (_, n) => ({
    ...template,
    id: randomUUID(),
    merchant_id: merchant,
    identifiers: Array.from({ length: identifiers }, (_, i) => ({ type: 'EAN', value: `400638${String(n * 1000 + i).padStart(6, '0')}` })),
    found_marketplace_catalog_item_ids: [],
    not_found_identifiers: [],
    processed: false,
    created_at: createdAt.toISOString(),
    updated_at: createdAt.toISOString(),
    ...importSchedule(createdAt, identifiers),
  }));
}

/** Imports pending in the seeded world (none are, so a bundle's count is its own). */
export const seededPendingImports = () => seededCount('catalog_item_imports', (r) => r.processed === false);

/** A value nested `depth` levels deep. */
export function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** A journal entry as the journal answers one, with the request body given. */
export const journalEntry = (i: number, body: unknown) => ({
  id: `entry-${i}`,
  at: '2024-09-01T00:00:00.000Z',
  workspace: 'x',
  method: 'POST',
  path: '/2024-09/merchants',
  operation_id: 'createMerchant',
  status: 201,
  duration_ms: 1,
  request: { query: {}, headers: {}, body, body_truncated: false, ignored: [] },
  response: { body: null, body_truncated: false },
});
