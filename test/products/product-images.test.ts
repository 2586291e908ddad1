import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { MAX_FILE_BYTES } from '../../src/http/body-limits.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { aMerchant, aProduct } from '../helpers/builders.js';

const UNKNOWN = '0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c';
/** A real 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});
const api = () => request(t.app);

/** The path part of an absolute URL the sandbox answered, to request it from the same app. */
const pathOf = (url: string) => new URL(url).pathname;

describe('listProductImages', () => {
  it('When a product has images, then 200 with a paginated list in the order they were added', async () => {
    const res = await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).query({ per_page: 1 }).set(t.auth('member'));
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ per_page: 1, current_page: 1 });
    expect(res.body.data[0]).not.toHaveProperty('storage_key');
  });

  it('When per_page is 101 or page 0, then 422; unknown product 404; another merchant 403; no token 401', async () => {
    const bad = await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).query({ per_page: 101, page: 0 }).set(t.auth('owner'));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['page', 'per_page']);
    expect((await api().get(`/2024-09/products/${UNKNOWN}/images`).set(t.auth('owner'))).status).toBe(404);
    expect((await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('rival'))).status).toBe(403);
    expect((await api().get(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)).status).toBe(401);
  });
});

describe('createProductImage by URL', () => {
  it('When an image is added by URL, then 201; it does not become main until PUT names it, and then main_image_url shows it', async () => {
    const productId = (await aProduct(t)).id;
    const res = await api().post(`/2024-09/products/${productId}/images`).set(t.auth('owner')).send({ url: 'https://cdn.example.com/a.png' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ product_id: productId, url: 'https://cdn.example.com/a.png', filename: null, content_type: null, size: null });
    expect((await api().get(`/2024-09/products/${productId}`).set(t.auth('owner'))).body.data.main_image_id).toBeNull();
    const put = await api()
      .put(`/2024-09/products/${productId}`)
      .set(t.auth('owner'))
      .send({ main_image_id: res.body.data.id, thumbnail_image_id: res.body.data.id });
    expect(put.status).toBe(204);
    const got = (await api().get(`/2024-09/products/${productId}`).set(t.auth('owner'))).body.data;
    expect(got).toMatchObject({ main_image_url: 'https://cdn.example.com/a.png', thumbnail_image_url: 'https://cdn.example.com/a.png' });
    await api().put(`/2024-09/products/${productId}`).set(t.auth('owner')).send({ thumbnail_image_id: null });
    const cleared = (await api().get(`/2024-09/products/${productId}`).set(t.auth('owner'))).body.data;
    expect(cleared).toMatchObject({ thumbnail_image_id: null, thumbnail_image_url: null, main_image_id: res.body.data.id });
  });

  it('When the URL is not http(s) or missing (an unknown field instead is ignored), then 422 on the url', async () => {
    const ftp = await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner')).send({ url: 'ftp://example.com/a.png' });
    expect(ftp.status).toBe(422);
    expect(ftp.body.errors).toHaveProperty('url');
    const extra = await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner')).send({ link: 'https://a.example/x.png' });
    // The unknown field is ignored (and named); the url it was meant to be is still missing.
    expect(extra.status).toBe(422);
    expect(Object.keys(extra.body.errors)).toEqual(['url']);
    expect(extra.headers['sandbox-ignored-fields']).toBe('body.link');
  });

  it('When the URL has no host (https://, or https:///a.png from an empty variable), then 422 on the url; HTTPS:// in capitals is a URL', async () => {
    for (const url of ['https://', 'https:///a.png', 'http://?x=1']) {
      const res = await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner')).send({ url });
      expect([url, res.status, Object.keys(res.body.errors ?? {})]).toEqual([url, 422, ['url']]);
    }
    const capitals = await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner')).send({ url: 'HTTPS://A.EXAMPLE/X.PNG' });
    expect(capitals.status).toBe(201);
  });

  it('When the product is unknown, then 404; another merchant, then 403; no token, then 401', async () => {
    const body = { url: 'https://cdn.example.com/b.png' };
    expect((await api().post(`/2024-09/products/${UNKNOWN}/images`).set(t.auth('owner')).send(body)).status).toBe(404);
    expect((await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('rival')).send(body)).status).toBe(403);
    expect((await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).send(body)).status).toBe(401);
  });
});

describe('createProductImage by upload', () => {
  it('When a PNG is uploaded, then 201 with its name, type and size, and the sandbox serves the bytes back at its url', async () => {
    const productId = (await aProduct(t)).id;
    const res = await api()
      .post(`/2024-09/products/${productId}/images`)
      .set(t.auth('owner'))
      .attach('file', PNG, { filename: 'my photo.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ product_id: productId, filename: 'my-photo.png', content_type: 'image/png', size: PNG.length });
    expect(res.body.data.url).toMatch(new RegExp(`/_sandbox/uploads/product-images/${res.body.data.id}/my-photo\\.png$`));
    const served = await api().get(pathOf(res.body.data.url)).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(served.body as Buffer, PNG)).toBe(0);

    await api().put(`/2024-09/products/${productId}`).set(t.auth('owner')).send({ main_image_id: res.body.data.id });
    const product = (await api().get(`/2024-09/products/${productId}`).set(t.auth('owner'))).body.data;
    // Upload URLs point at the origin of each request.
    expect(pathOf(product.main_image_url)).toBe(pathOf(res.body.data.url));
  });

  it('When the file is not an image (or lies about being one), then 422 errors.file and nothing is stored', async () => {
    const before = t.store.product_images.size;
    const text = await api()
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(t.auth('owner'))
      .attach('file', Buffer.from('hello'), { filename: 'notes.txt', contentType: 'text/plain' });
    expect(text.status).toBe(422);
    expect(text.body.errors).toHaveProperty('file');
    const fake = await api()
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(t.auth('owner'))
      .attach('file', Buffer.from('not really a png'), { filename: 'x.png', contentType: 'image/png' });
    expect(fake.status).toBe(422);
    expect(t.store.product_images.size).toBe(before);
  });

  it('When the multipart form has no file, or the file under another field name, then 422', async () => {
    const textField = await api().post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`).set(t.auth('owner')).field('file', 'just text');
    expect(textField.status).toBe(422);
    expect(textField.body.errors).toHaveProperty('file');
    const wrongName = await api()
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(t.auth('owner'))
      .attach('image', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(wrongName.status).toBe(422);
    expect(wrongName.body.errors).toHaveProperty('file');
  });

  it('When the file is larger than 5 MiB, then 413 with a message, never 500', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_FILE_BYTES)]);
    const res = await api()
      .post(`/2024-09/products/${DEMO_PRODUCT_ID}/images`)
      .set(t.auth('owner'))
      .attach('file', big, { filename: 'big.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: expect.any(String) });
  });

  it('When a product with an uploaded image is deleted, then the file is no longer served', async () => {
    const productId = (await aProduct(t)).id;
    const up = await api()
      .post(`/2024-09/products/${productId}/images`)
      .set(t.auth('owner'))
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect((await api().get(pathOf(up.body.data.url))).status).toBe(200);
    expect((await api().delete(`/2024-09/products/${productId}`).set(t.auth('owner'))).status).toBe(204);
    expect((await api().get(pathOf(up.body.data.url))).status).toBe(404);
  });

  it('When an upload URL names no image, or the wrong file name, then 404', async () => {
    expect((await api().get(`/_sandbox/uploads/product-images/${UNKNOWN}/a.png`)).status).toBe(404);
    const seeded = t.store.product_images.all()[0]!;
    expect((await api().get(`/_sandbox/uploads/product-images/${seeded.id}/a.png`)).status).toBe(404);
  });
});

describe('uploads of a file-backed world', () => {
  let dir: string;
  let f: TestApp;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandbox-uploads-'));
    f = await testApp({ store: 'file', dataFile: join(dir, 'sandbox.json') });
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    expect(f.errors).toEqual([]);
  });

  it('When a file is uploaded, then its bytes live beside the data file; deleting the product removes them', async () => {
    const productId = (await aProduct(f)).id;
    const up = await request(f.app)
      .post(`/2024-09/products/${productId}/images`)
      .set(f.auth('owner'))
      .attach('file', PNG, { filename: 'disk.png', contentType: 'image/png' });
    expect(up.status).toBe(201);
    const onDisk = join(dir, 'sandbox.json.uploads', 'product-images', up.body.data.id, 'disk.png');
    expect(readFileSync(onDisk)).toEqual(PNG);
    expect((await request(f.app).get(pathOf(up.body.data.url))).status).toBe(200);
    expect((await request(f.app).delete(`/2024-09/products/${productId}`).set(f.auth('owner'))).status).toBe(204);
    expect(existsSync(onDisk)).toBe(false);
  });

  it('When the sandbox is reset, then the uploaded files are gone from disk and no longer served', async () => {
    const productId = (await aProduct(f)).id;
    const up = await request(f.app)
      .post(`/2024-09/products/${productId}/images`)
      .set(f.auth('owner'))
      .attach('file', PNG, { filename: 'c.png', contentType: 'image/png' });
    const onDisk = join(dir, 'sandbox.json.uploads', 'product-images', up.body.data.id, 'c.png');
    expect(existsSync(onDisk)).toBe(true);
    await request(f.app).post('/_sandbox/reset').expect(204);
    expect(existsSync(onDisk)).toBe(false);
    expect((await request(f.app).get(pathOf(up.body.data.url))).status).toBe(404);
  });

  it('When the merchant is deleted, then its uploaded files are removed too', async () => {
    const merchant = await aMerchant(f, {}, 'outsider');
    const product = await aProduct(f, { merchant_id: merchant.id }, 'outsider');
    const up = await request(f.app)
      .post(`/2024-09/products/${product.id}/images`)
      .set(f.auth('outsider'))
      .attach('file', PNG, { filename: 'm.png', contentType: 'image/png' });
    const onDisk = join(dir, 'sandbox.json.uploads', 'product-images', up.body.data.id, 'm.png');
    expect(existsSync(onDisk)).toBe(true);
    expect((await request(f.app).delete(`/2024-09/merchants/${merchant.id}`).set(f.auth('outsider'))).status).toBe(204);
    expect(existsSync(onDisk)).toBe(false);
  });
});
