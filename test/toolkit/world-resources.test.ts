import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { uploadStorageFor } from '../../src/areas/products/uploads.js';
import { resourceKind, WorldResources } from '../../src/world-resources.js';
import { demo, testApp, type TestApp } from '../helpers/app.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const CONNECTED = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
const PARTICIPATIONS = `/2024-09/channels/retailer/${CONNECTED}/call/sellers%2Fv1%2FmarketplaceParticipations`;
const pathAndQuery = (url: string) => new URL(url).pathname + new URL(url).search;

/** Relays until the retailer's bucket runs dry (burst 15, then about one a minute). */
async function throttle(t: TestApp, token: string) {
  for (let i = 0; i < 20; i++) {
    const res = await request(t.app).get(PARTICIPATIONS).set(t.bearer(token));
    if (res.status === 429) return res;
  }
  throw new Error('never throttled');
}

/** Uploads a PNG to a new product of the demo merchant and answers the image's url. */
async function upload(t: TestApp, token: string, sku: string): Promise<string> {
  const product = await request(t.app).post('/2024-09/products').set(t.bearer(token)).send({ merchant_id: demo.merchant, sku, title: sku }).expect(201);
  const image = await request(t.app)
    .post(`/2024-09/products/${product.body.data.id}/images`)
    .set(t.bearer(token))
    .attach('file', PNG, { filename: 'pic.png', contentType: 'image/png' })
    .expect(201);
  return image.body.data.url;
}

const newWorkspace = async (t: TestApp) =>
  (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };

describe('WorldResources', () => {
  it('When a world is disposed, then its resource is released once and the next use creates a fresh one', () => {
    const released: number[] = [];
    let made = 0;
    const counter = resourceKind<{ n: number }>('counter', (v) => released.push(v.n));
    const create = () => ({ n: ++made });
    const a = new WorldResources();
    const b = new WorldResources();
    expect(a.of(counter, create).n).toBe(1);
    expect(a.of(counter, create).n).toBe(1);
    expect(b.of(counter, create).n).toBe(2);
    a.dispose();
    a.dispose();
    expect(released).toEqual([1]);
    expect(a.of(counter, create).n).toBe(3);
    expect(b.of(counter, create).n).toBe(2);
  });
});

describe('reset and delete drop what a world keeps outside its store', () => {
  it('When the sandbox is reset, then a previously throttled channel is no longer throttled', async () => {
    const t = await testApp();
    await throttle(t, demo.owner.token);
    await request(t.app).post('/_sandbox/reset').expect(204);
    await request(t.app).get(PARTICIPATIONS).set(t.auth('owner')).expect(200);
    expect(t.errors).toEqual([]);
  });

  it("When a workspace is reset, then its channel is no longer throttled, and the default world's throttling is untouched", async () => {
    const t = await testApp();
    const ws = await newWorkspace(t);
    await throttle(t, ws.tokens.owner);
    await throttle(t, demo.owner.token);
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).expect(204);
    await request(t.app).get(PARTICIPATIONS).set(t.bearer(ws.tokens.owner)).expect(200);
    await request(t.app).get(PARTICIPATIONS).set(t.auth('owner')).expect(429);
  });

  it('When an image is uploaded in a workspace, then it is served from that workspace only', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t);
    const url = await upload(t, ws.tokens.owner, 'WS-IMG');
    expect(new URL(url).searchParams.get('workspace')).toBe(ws.id);
    const served = await request(t.app).get(pathAndQuery(url)).expect(200);
    expect(served.body).toEqual(PNG);
    // The same path in the default world, or in another workspace, has no such image.
    await request(t.app).get(new URL(url).pathname).expect(404);
    const other = await newWorkspace(t);
    await request(t.app).get(new URL(url).pathname).query({ workspace: other.id }).expect(404);
    await request(t.app).get(new URL(url).pathname).query({ workspace: 'feedfacecafe' }).expect(404);
    expect(t.errors).toEqual([]);
  });

  it('When a workspace is reset or deleted, then its uploaded files are gone', async () => {
    const t = await testApp();
    const ws = await newWorkspace(t);
    const first = await upload(t, ws.tokens.owner, 'WS-RESET');
    await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).expect(204);
    await request(t.app).get(pathAndQuery(first)).expect(404);
    const second = await upload(t, ws.tokens.owner, 'WS-DELETE');
    const storage = uploadStorageFor(t.worlds.workspace(ws.id)!.world, t.runtime.config);
    const key = new URL(second).pathname.replace('/_sandbox/uploads/', '');
    expect(await storage.read(key)).toEqual(PNG);
    await request(t.app).delete(`/_sandbox/workspaces/${ws.id}`).expect(204);
    await request(t.app).get(pathAndQuery(second)).expect(404);
    expect(await storage.read(key)).toBeUndefined();
  });

  describe('with a file-backed default world', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-ws-uploads-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("When a workspace uploads and is reset, then its files never touch the disk and the default world's files stay", async () => {
      const t = await testApp({ store: 'file', dataFile: join(dir, 'sandbox.json') });
      const mainUrl = await upload(t, demo.owner.token, 'MAIN-IMG');
      const onDisk = join(dir, 'sandbox.json.uploads', new URL(mainUrl).pathname.replace('/_sandbox/uploads/', ''));
      expect(existsSync(onDisk)).toBe(true);
      const ws = await newWorkspace(t);
      const wsUrl = await upload(t, ws.tokens.owner, 'WS-IMG');
      expect(existsSync(join(dir, 'sandbox.json.uploads', new URL(wsUrl).pathname.replace('/_sandbox/uploads/', '')))).toBe(false);
      await request(t.app).post(`/_sandbox/workspaces/${ws.id}/reset`).expect(204);
      expect(existsSync(onDisk)).toBe(true);
      await request(t.app).get(new URL(mainUrl).pathname).expect(200);
      await request(t.app).post('/_sandbox/reset').expect(204);
      expect(existsSync(onDisk)).toBe(false);
    });
  });
});
