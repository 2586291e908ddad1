// A bundle that cannot be loaded whole is refused whole: 422 (or 413) naming what is wrong, and no workspace, no
// journal ring, no coverage is left behind.
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';
import { exported, newWorkspace, scriptedSession, type Bundle } from './session.js';

let t: TestApp;
let bundle: Bundle;

beforeAll(async () => {
  t = await testApp({ workspaceCreatePerMinute: undefined });
  bundle = await exported(t, await newWorkspace(t).then(async (ws) => (await scriptedSession(t, ws), ws)));
}, 60_000);

const copy = (): Bundle => structuredClone(bundle);

/** Sends a bundle; expects it refused with `status`, nothing created; answers the body. */
async function refused(body: unknown, status = 422): Promise<{ message: string; errors?: Record<string, string[]> }> {
  const before = { workspaces: t.worlds.workspaceCount, journal: t.runtime.observations.journal.usage().workspaces.size };
  const res = await request(t.app)
    .post('/_sandbox/workspaces')
    .set('Content-Type', 'application/json')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
  expect(res.status, res.text.slice(0, 400)).toBe(status);
  expect(t.worlds.workspaceCount).toBe(before.workspaces);
  // The refused creation is journaled in the world it was sent to (the default), no ring of a new workspace appears.
  expect(t.runtime.observations.journal.usage().workspaces.size).toBe(before.journal);
  return res.body;
}

describe('Loading a bundle refuses what it cannot load whole', () => {
  it('When the bundle comes from another contract, then 422 names contract.sha256', async () => {
    const b = copy();
    (b.contract as { sha256: string }).sha256 = '0'.repeat(64);
    const body = await refused(b);
    expect(body.message).toBe('The bundle was exported against another contract; nothing was loaded.');
    expect(body.errors!['contract.sha256']![0]).toMatch(/^The bundle was exported against openapi\.yaml with SHA-256 0{64}; this sandbox serves [0-9a-f]{64}/);
  });

  it('When an uploaded file names a field besides key and base64, then 422 names it', async () => {
    const b = copy() as Bundle & { uploads: Record<string, unknown>[] };
    expect(b.uploads.length).toBeGreaterThan(0);
    b.uploads[0]!.note = 'not part of a file';
    const body = await refused(b);
    expect(Object.keys(body.errors!)).toContain('uploads.0.note');
  });

  it('When the format version is unknown, then 422 names format_version', async () => {
    const body = await refused({ ...copy(), format_version: 2 });
    expect(body.errors).toEqual({ format_version: ['The bundle format version 2 is unknown; this sandbox reads version 1.'] });
  });

  it('When the seed scheme differs, then 422 names seed_scheme', async () => {
    const body = await refused({ ...copy(), seed_scheme: 'faker@9.0.0/seed-1' });
    expect(body.errors!.seed_scheme![0]).toMatch(/^The bundle was seeded by seed scheme faker@9\.0\.0\/seed-1; this sandbox seeds with faker@/);
  });

  it("When the seed differs from the server's, then 422 names seed and how to load it", async () => {
    const body = await refused({ ...copy(), seed: 7 });
    expect(body.errors!.seed![0]).toMatch(/seeded with seed 7; .* --seed 7/);
  });

  it('When the body is not JSON, then 400; when it is not a bundle, then 422 naming its format', async () => {
    await refused('{"format":', 400);
    const res = await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send('{"format":');
    expect(res.body).toEqual({ message: 'The request body is not valid JSON.' });
    expect((await refused({ hello: 'world' })).errors).toMatchObject({ format: expect.any(Array) });
  });

  it('When a required part is missing, then 422 names it', async () => {
    const { clock: _clock, ...rest } = copy();
    expect((await refused(rest)).errors).toMatchObject({ clock: ['The clock field is required.'] });
  });

  it("When a record breaks its schema, then 422 names the record's field by its place in the bundle", async () => {
    const b = copy();
    b.changes.products!.added[0]!.sku = 42;
    const body = await refused(b);
    expect(body.message).toBe('A record of the bundle breaks the contract; nothing was loaded.');
    expect(body.errors).toEqual({ 'changes.products.added.0.sku': ['The sku field must be string.'] });
  });

  it('When a record refers to a record the world would not have, then 422 names the dangling field', async () => {
    const b = copy();
    b.changes.products!.added[0]!.merchant_id = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaab';
    const body = await refused(b);
    expect(body.message).toBe('A record of the bundle refers to a record the world would not have; nothing was loaded.');
    expect(Object.keys(body.errors!)).toEqual(['changes.products.added.0.merchant_id']);
  });

  it('When the bundle deletes a record others still refer to, then 422 names the deletion', async () => {
    const b = copy();
    b.changes.merchants = { ...(b.changes.merchants ?? { added: [], changed: [] }), deleted: [demo.merchant] };
    const body = await refused(b);
    expect(body.errors!['changes.merchants.deleted']![0]).toMatch(
      /refers to merchants aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa, which the world would not have \(the bundle deletes it/,
    );
  });

  it('When the bundle names a collection the store does not have, or the tokens, then 422 names it', async () => {
    const b = copy();
    b.changes.tokens = { added: [{ id: 'ws_x.secret', user_id: demo.owner.id, created_at: '2024-01-01T00:00:00.000Z' }], changed: [], deleted: [] };
    expect(Object.keys((await refused(b)).errors!)).toEqual(['changes.tokens']);
  });

  it('When an uploaded file is named by no image, then 422 names it', async () => {
    const b = copy();
    (b.uploads as { key: string; base64: string }[]).push({ key: 'product-images/00000000-0000-4000-8000-000000000000/x.png', base64: 'AAAA' });
    expect(Object.keys((await refused(b)).errors!)).toEqual(['uploads.1.key']);
  });

  it('When the bundle adds more records than a workspace may, or uploads more bytes, then 422 (records) or 413 (bytes) naming the quota', async () => {
    const small = await testApp({ workspaceMaxRecords: 2, workspaceMaxUploadBytes: 10 });
    const res = await request(small.app).post('/_sandbox/workspaces').send(copy());
    expect(res.status).toBe(422);
    expect(res.body.errors.quota[0]).toMatch(/more than the 2 a workspace may add \(WORKSPACE_MAX_RECORDS\)/);
    const bytes = await testApp({ workspaceMaxUploadBytes: 10 });
    const big = await request(bytes.app).post('/_sandbox/workspaces').send(copy());
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/past the workspace's upload quota of 10 bytes \(WORKSPACE_MAX_UPLOAD_MB\); nothing was loaded\.$/);
    expect(small.worlds.workspaceCount + bytes.worlds.workspaceCount).toBe(0);
  });

  it('When a hosted address has used its creations this minute, then loading a bundle answers 429 like any creation', async () => {
    const hosted = await testApp({
      hosted: true,
      adminToken: '5c2f0e8a9b7d4c31a6e2f08b9d7c4e15',
      publicUrl: 'https://sandbox.example.test',
      workspaceCreatePerMinute: 1,
    });
    await request(hosted.app).post('/_sandbox/workspaces').expect(201);
    const res = await request(hosted.app).post('/_sandbox/workspaces').send(copy());
    expect(res.status).toBe(429);
    expect(hosted.worlds.workspaceCount).toBe(1);
  });

  it('When the bundle is whole, then it loads (the refusals above were about what they named)', async () => {
    const ws = await newWorkspace(t, copy());
    expect(t.worlds.live(ws.id)).toBeDefined();
  });
});
