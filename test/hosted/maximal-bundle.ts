// The largest bundle hosted mode loads: BUNDLE_MAX_BYTES of JSON filled with records, journal entries and uploaded
// files, each up to what a workspace may hold. Built from a real workspace's export (its images uploaded through
// the API), so it loads with 201: every check and every step of the build runs over it.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { expect } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import type { Config } from '../../src/config.js';
import { demo } from '../helpers/app.js';
import { journalEntry, seeded } from '../bundle/hostile-bundles.js';
import { PNG } from '../bundle/session.js';

type App = Parameters<typeof request>[0];
type Rec = Record<string, unknown> & { id: string };

/** Files the bundle uploads, together near the workspace's upload quota. */
const UPLOAD_FILES = 3;

/**
 * A bundle of at most `config.bundleMaxBytes` bytes of JSON: uploads filling most of the workspace's upload quota,
 * a full journal (JOURNAL_SIZE entries), and products added up to the size limit.
 */
export async function maximalBundle(app: App, config: Pick<Config, 'bundleMaxBytes' | 'workspaceMaxUploadBytes' | 'journalSize'>): Promise<string> {
  const ws = (await request(app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
  const owner = { Authorization: `Bearer ${ws.tokens.owner}` };
  const fileBytes = Math.floor((config.workspaceMaxUploadBytes * 0.9) / UPLOAD_FILES);
  const file = Buffer.concat([PNG, Buffer.alloc(fileBytes - PNG.length)]);
  for (let i = 0; i < UPLOAD_FILES; i++) {
    await request(app)
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(owner)
      .attach('file', file, { filename: `max-${i}.png`, contentType: 'image/png' })
      .expect(201);
  }
  const res = await request(app).get(`/_sandbox/workspaces/${ws.id}/export`).set(owner).expect(200);
  const bundle = res.body as Record<string, unknown> & { changes: Record<string, { added: Rec[]; changed: Rec[]; deleted: string[] }>; journal: unknown[] };
  bundle.journal = Array.from({ length: config.journalSize }, (_, i) => journalEntry(i, { name: `Merchant ${i}`, note: 'n'.repeat(400) }));
  // A new product has no images of its own yet, so it names none as its main or thumbnail image.
  const template = { ...seeded('products', (p) => p.merchant_id === demo.merchant), main_image_id: null, thumbnail_image_id: null };
  const products = (bundle.changes.products ??= { added: [], changed: [], deleted: [] });
  const text = () => JSON.stringify(bundle);
  const room = config.bundleMaxBytes - Buffer.byteLength(text()) - 1024;
  const perProduct = Buffer.byteLength(JSON.stringify({ ...template, id: randomUUID(), sku: 'MAX-000000' })) + 1;
  const count = Math.floor(room / perProduct);
  for (let i = 0; i < count; i++) products.added.push({ ...template, id: randomUUID(), sku: `MAX-${String(i).padStart(6, '0')}` });
  const out = text();
  expect(Buffer.byteLength(out)).toBeLessThanOrEqual(config.bundleMaxBytes);
  expect(Buffer.byteLength(out)).toBeGreaterThan(config.bundleMaxBytes - 64 * 1024);
  return out;
}
