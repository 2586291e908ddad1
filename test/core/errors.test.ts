import zlib from 'node:zlib';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});
afterEach(() => {
  // Every answer here is a documented one: the app logged no unexpected error.
  expect(t.errors).toEqual([]);
});

describe('errors a client can cause', () => {
  it('When the JSON body is malformed, then 400 with a message', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'application/json').send('{"name":');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not valid JSON/);
  });

  it('When the body is over 1 MiB, then 413', async () => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .send({ name: 'x'.repeat(1_100_000) });
    expect(res.status).toBe(413);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('When the body is not JSON, then 415', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'text/plain').send('name=x');
    expect(res.status).toBe(415);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('When a body sent as gzip is not gzip, then 400 naming the encoding, not zlib alone', async () => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(Buffer.from('{"name":"x"}'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'The request body does not decompress as its Content-Encoding (gzip) says: incorrect header check.' });
  });

  it.each<[string, string]>([
    ['deflate', 'incorrect header check'],
    ['br', 'Decompression failed'],
    ...(typeof zlib.zstdDecompressSync === 'function' ? [['zstd', 'Unknown frame descriptor'] as [string, string]] : []),
  ])('When a body sent as %s is not in that encoding, then 400 naming the encoding beside the reason of its decoder (%s)', async (encoding, reason) => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', encoding)
      .send(Buffer.from('{"name":"x"}'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `The request body does not decompress as its Content-Encoding (${encoding}) says: ${reason}.` });
  });

  it.each(['/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js', '/docs/favicon-32x32.png'])(
    "When %s is asked for a range past its end, then 416 is JSON, labelled as JSON, without the file's validators",
    async (path) => {
      const res = await request(t.app).get(path).set('Range', 'bytes=99999999-');
      expect(res.status).toBe(416);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.text)).toEqual({ message: 'Range Not Satisfiable' });
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['last-modified']).toBeUndefined();
      expect(res.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
    },
  );

  it('When a body comes without a Content-Type, then 415 saying the header is missing', async () => {
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', '').send(Buffer.from('{"name":"x"}'));
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ message: expect.stringContaining('no Content-Type') });
  });

  it('When the method is not defined for a known path, then 405', async () => {
    const res = await request(t.app).patch('/2024-09/merchants').set(t.auth('owner')).send({});
    expect(res.status).toBe(405);
    expect(res.body.message).toMatch(/PATCH/);
  });

  it('When the path is unknown, then 404 with a message', async () => {
    const res = await request(t.app).get('/2024-09/sourcing-opportunities').set(t.auth('owner'));
    expect(res.status).toBe(404);
    expect(res.body.message).toEqual(expect.any(String));
  });

  it('When a field breaks the contract, then 422 with Laravel-style field errors', async () => {
    const res = await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .send({ name: 'x'.repeat(256) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: expect.stringContaining('name'), errors: { name: [expect.stringContaining('255')] } });
  });

  it('When several fields are wrong, then every one is listed and the message counts the rest', async () => {
    const res = await request(t.app).get('/2024-09/merchants?page=0&per_page=101').set(t.auth('owner'));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(['page', 'per_page']);
    expect(res.body.message).toMatch(/\(and 1 more error\)/);
  });

  it('When a field the contract does not know is sent, then it is ignored and named; with Prefer: strict, 422 names it', async () => {
    const tolerant = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).send({ name: 'A', upc: '123' });
    expect(tolerant.status).toBe(201);
    expect(tolerant.headers['sandbox-ignored-fields']).toBe('body.upc');
    const strict = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Prefer', 'strict').send({ name: 'A', upc: '123' });
    expect(strict.status).toBe(422);
    expect(strict.body.errors).toHaveProperty('upc');
  });

  it('When a query parameter the contract does not know is sent, then it is ignored; with Prefer: strict, 422 names it', async () => {
    const tolerant = await request(t.app).get('/2024-09/merchants?color=red').set(t.auth('owner'));
    expect(tolerant.status).toBe(200);
    expect(tolerant.headers['sandbox-ignored-fields']).toBe('query.color');
    const strict = await request(t.app).get('/2024-09/merchants?color=red').set(t.auth('owner')).set('Prefer', 'strict');
    expect(strict.status).toBe(422);
    expect(strict.body.errors.color[0]).toMatch(/not part of the contract/);
  });

  it('When merchant_id is not a UUID, then 422; when it is unknown, then 404; when foreign, then 403', async () => {
    const list = (merchantId: string) => request(t.app).get('/2024-09/users/merchant-memberships').query({ merchant_id: merchantId }).set(t.auth('owner'));
    expect((await list('xyz')).status).toBe(422);
    expect((await list('0f8b6c1e-2a4d-4e7b-9c3a-5d6e7f8a9b0c')).status).toBe(404);
    expect((await list(demo.rivalMerchant)).status).toBe(403);
  });

  it('When the body is a JSON array or a string instead of an object, then 422, never 500', async () => {
    for (const body of ['[]', '"name"', 'null', '42']) {
      const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('Content-Type', 'application/json').send(body);
      expect([400, 422]).toContain(res.status);
      expect(res.body.message).toEqual(expect.any(String));
    }
  });
});
