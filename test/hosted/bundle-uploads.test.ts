// Issue 31, finding 3: a bundle's files skipped the upload path's rules, so one was served back as text/html and
// another as text/javascript on the sandbox's own origin, and a 24 MiB file loaded past the 5 MiB per-file limit.
// A bundle's files now meet the upload path's rules (uploadErrors), and every file is served as the image its bytes
// are, anything else as an attachment, under `default-src 'none'; sandbox`.
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { uploadStorageFor } from '../../src/areas/products/uploads.js';
import { parseArgs } from '../../src/cli/parse-args.js';
import { configFromOptions } from '../../src/config.js';
import { MAX_FILE_BYTES } from '../../src/http/body-limits.js';
import { testApp } from '../helpers/app.js';
import { bundleWithFiles, fileUrl, PNG, type PlantedFile } from './hostile-bundle.js';
import { bearer, hostedApp, newWorkspace, PUBLIC_URL } from './support.js';

const HTML = Buffer.from('<!doctype html><script src="x.js"></script><p>not an image</p>');
const SCRIPT = Buffer.from('document.title = sessionStorage.getItem("sandbox-workspace");');
const POLICY = "default-src 'none'; sandbox";
/** Room for a file past the per-file limit inside one bundle, whatever BUNDLE_MAX_BYTES defaults to. */
const ROOM = { bundleMaxBytes: 16 * 2 ** 20, workspaceCreatePerMinute: 100 };

type App = Awaited<ReturnType<typeof hostedApp>>;
const baseOf = (t: App) => `http://127.0.0.1:${(t.app.address() as AddressInfo).port}`;

/** Loads a bundle whose one image is `file`: the answer, and how many workspaces the sandbox then holds. */
async function load(t: App, file: PlantedFile) {
  const bundle = await bundleWithFiles(baseOf(t), [file]);
  const before = t.worlds.workspaceCount;
  const res = await request(t.app).post('/_sandbox/workspaces').send(bundle);
  return { res, added: t.worlds.workspaceCount - before, bundle };
}

/** A new workspace with a PNG uploaded through the API to the demo product: the workspace and the 201 answer. */
async function uploadedPng(t: App) {
  const ws = await newWorkspace(t.app);
  const up = await request(t.app)
    .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
    .set(bearer(ws.tokens.owner))
    .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' })
    .expect(201);
  return { ws, up };
}

describe('hosted mode: a bundle’s files are uploads', () => {
  it('When a bundle serves an HTML page or a script as a product image, then it is refused (422 naming the file) and nothing is created', async () => {
    const t = await hostedApp(ROOM);
    for (const file of [
      { filename: 'x.html', contentType: 'text/html', bytes: HTML },
      { filename: 'x.js', contentType: 'text/javascript', bytes: SCRIPT },
      { filename: 'x.png', contentType: 'image/png', bytes: HTML },
      { filename: 'x.svg', contentType: 'image/svg+xml', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>') },
    ]) {
      const { res, added } = await load(t, file);
      expect(res.status, file.filename).toBe(422);
      expect(res.body.errors['uploads.0.file'], file.filename).toEqual(['The file field must be a file of type: png, jpeg, gif, webp.']);
      expect(added).toBe(0);
    }
    expect(t.errors).toEqual([]);
  });

  it('When a bundle file is past 5 MiB, its size is not its length, or its key is not the upload path’s, then 422 names which', async () => {
    const t = await hostedApp(ROOM);
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_FILE_BYTES + 1 - PNG.length)]);
    const tooBig = await load(t, { filename: 'big.png', contentType: 'image/png', bytes: big });
    expect(tooBig.res.status).toBe(422);
    expect(tooBig.res.body.errors['uploads.0.file']).toEqual(['The uploaded file is larger than 5 MiB.']);
    const lying = await load(t, { filename: 'a.png', contentType: 'image/png', bytes: PNG, size: 3 });
    expect(lying.res.status).toBe(422);
    expect(Object.keys(lying.res.body.errors)).toEqual(['uploads.0.size']);
    const elsewhere = await load(t, { filename: 'a.png', contentType: 'image/png', bytes: PNG, storageKey: (id) => `product-images/${id}/b.png` });
    expect(elsewhere.res.status).toBe(422);
    // Where a file is kept is the world's rule for every image (src/areas/products/image-keys.ts).
    expect(Object.keys(elsewhere.res.body.errors)).toEqual(['changes.product_images']);
    expect(tooBig.added + lying.added + elsewhere.added).toBe(0);
  });

  it('When a bundle file is exactly 5 MiB of PNG, then it loads and is served back as image/png under the upload policy', async () => {
    const t = await hostedApp(ROOM);
    const bytes = Buffer.concat([PNG, Buffer.alloc(MAX_FILE_BYTES - PNG.length)]);
    const { res, bundle } = await load(t, { filename: 'full.png', contentType: 'image/png', bytes });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(201);
    const image = bundle.changes.product_images.added[0]!;
    const served = await request(t.app).get(`${new URL(fileUrl(PUBLIC_URL, image, res.body.data.id)).pathname}?workspace=${res.body.data.id}`);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-length']).toBe(String(MAX_FILE_BYTES));
    expect(served.headers['content-security-policy']).toBe(POLICY);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBeUndefined();
  });
});

describe('serving uploaded files', () => {
  it('When an uploaded image is fetched, then it is sent as its sniffed type under default-src none; sandbox, with nosniff', async () => {
    const t = await hostedApp();
    const { up } = await uploadedPng(t);
    const url = new URL(up.body.data.url);
    expect(url.origin).toBe(PUBLIC_URL);
    const served = await request(t.app)
      .get(url.pathname + url.search)
      .expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['content-security-policy']).toBe(POLICY);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });

  it('When a stored file is not an image (a data file of an earlier version), then it is an octet-stream attachment under the same policy', async () => {
    const t = await hostedApp();
    const ws = await newWorkspace(t.app);
    const world = t.worlds.live(ws.id)!.world;
    // What an earlier version let a bundle keep: an image record declaring text/html over an HTML file.
    const id = '0f5a2c4e-6b8d-4f0a-9c2e-4b6d8f0a2c4e';
    const key = `product-images/${id}/x.html`;
    const now = new Date().toISOString();
    await world.store.transact(() =>
      world.store.collections.product_images.insert({
        id,
        product_id: DEMO_PRODUCT_ID,
        url: `${PUBLIC_URL}/_sandbox/uploads/${key}`,
        filename: 'x.html',
        content_type: 'text/html',
        size: HTML.length,
        storage_key: key,
        created_at: now,
        updated_at: now,
      }),
    );
    uploadStorageFor(world, { store: 'memory', dataFile: '', workspaceMaxUploadBytes: 2 ** 20 }).write(key, HTML);
    const served = await request(t.app).get(`/_sandbox/uploads/${key}?workspace=${ws.id}`).expect(200);
    expect(served.headers['content-type']).toBe('application/octet-stream');
    expect(served.headers['content-disposition']).toBe('attachment');
    expect(served.headers['content-security-policy']).toBe(POLICY);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('UPLOADS_ORIGIN', () => {
  it('When UPLOADS_ORIGIN is set, then uploaded images’ URLs point there (the image, the product) and other links stay on PUBLIC_URL', async () => {
    const t = await hostedApp({ uploadsOrigin: 'https://uploads.example.test' });
    const { ws, up } = await uploadedPng(t);
    expect(up.body.data.url).toBe(`https://uploads.example.test/_sandbox/uploads/product-images/${up.body.data.id}/a.png?workspace=${ws.id}`);
    await request(t.app).put(`/2024-09/products/${DEMO_PRODUCT_ID}`).set(bearer(ws.tokens.owner)).send({ main_image_id: up.body.data.id }).expect(204);
    const product = await request(t.app).get(`/2024-09/products/${DEMO_PRODUCT_ID}`).set(bearer(ws.tokens.owner)).expect(200);
    expect(product.body.data.main_image_url).toBe(up.body.data.url);
    const list = await request(t.app).get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(bearer(ws.tokens.owner)).expect(200);
    expect(list.body.meta.path.startsWith(PUBLIC_URL)).toBe(true);
  });

  it('When UPLOADS_ORIGIN or --uploads-origin is given, then it is read as an origin, and a path in it is refused naming the variable', () => {
    const configOf = (argv: string[], env: Record<string, string>) => {
      const parsed = parseArgs(argv, env);
      return parsed.ok ? configFromOptions(parsed.options, env) : { config: undefined, errors: parsed.errors };
    };
    expect(configOf([], { UPLOADS_ORIGIN: 'https://uploads.example.com/' }).config?.uploadsOrigin).toBe('https://uploads.example.com');
    expect(configOf(['--uploads-origin', 'https://uploads.example.com/'], {}).config?.uploadsOrigin).toBe('https://uploads.example.com');
    expect(configOf([], { UPLOADS_ORIGIN: 'https://uploads.example.com/files' }).errors).toEqual([
      "UPLOADS_ORIGIN must be an origin only (scheme, host and port, no path), got 'https://uploads.example.com/files'",
    ]);
    expect(configOf([], {}).config?.uploadsOrigin).toBeUndefined();
  });

  it('When it is unset locally, then image URLs keep the request’s own origin', async () => {
    const t = await testApp();
    const res = await request(t.app)
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(t.auth('owner'))
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body.data.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/_sandbox\/uploads\//);
  });
});
