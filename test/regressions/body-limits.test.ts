// Limits counted where the memory is: a compressed body is limited by what it inflates to, and a multipart body by
// its fields, their size, its file and its whole size. Each refusal is a 413 whose message names the limit.
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { testApp } from '../helpers/app.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const PRODUCT = 'dddddddd-dddd-4ddd-8ddd-ddddddddd001';
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const KiB = 1024;
const MiB = 1024 * KiB;

const compressors = { gzip: gzipSync, deflate: deflateSync, br: brotliCompressSync } as const;

async function served(overrides: Partial<Config> = {}) {
  const t = await testApp(overrides);
  return { ...t, url: `http://127.0.0.1:${(t.app.address() as AddressInfo).port}` };
}

async function postCompressed(url: string, encoding: keyof typeof compressors, json: string, token = 'demo-owner-token') {
  const res = await fetch(`${url}/2024-09/products`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Content-Encoding': encoding, Authorization: `Bearer ${token}` },
    body: compressors[encoding](Buffer.from(json)),
  });
  return { status: res.status, body: (await res.json()) as { message: string } };
}

describe('compressed bodies are limited by what they inflate to', () => {
  for (const encoding of Object.keys(compressors) as (keyof typeof compressors)[]) {
    it(`When a ${encoding} body of a few KB inflates past 1 MiB, then 413 naming 1 MiB`, async () => {
      const t = await served();
      const json = JSON.stringify({ merchant_id: MERCHANT, name: 'x'.repeat(2 * MiB) });
      const sent = compressors[encoding](Buffer.from(json)).length;
      expect(sent).toBeLessThan(64 * KiB);
      const res = await postCompressed(t.url, encoding, json);
      expect(res).toEqual({ status: 413, body: { message: 'The request body is larger than 1 MiB (counted after decompression).' } });
    });

    it(`When a ${encoding} body inflates to just under the limit, then it is read and answered by the operation`, async () => {
      const t = await served();
      const res = await postCompressed(t.url, encoding, JSON.stringify({ merchant_id: MERCHANT, name: 'x'.repeat(MiB - 100) }));
      expect(res.status).toBe(422);
    });
  }

  it('When BODY_LIMIT_BYTES is lower, then the 413 names that limit', async () => {
    const t = await served({ bodyLimit: 64 * KiB });
    const res = await postCompressed(t.url, 'gzip', JSON.stringify({ merchant_id: MERCHANT, name: 'x'.repeat(100 * KiB) }));
    expect(res).toEqual({ status: 413, body: { message: 'The request body is larger than 64 KiB (counted after decompression).' } });
  });
});

describe('multipart bodies have limits on fields, field size, file and total', () => {
  const upload = (t: Awaited<ReturnType<typeof served>>) => request(t.app).post(`/2024-09/products/${PRODUCT}/images`).set(t.auth('owner'));

  it('When 20 fields of 1 MB each are sent, then 413 naming the field size limit, and nothing is created', async () => {
    const t = await served();
    const before = t.store.product_images.size;
    let req = upload(t);
    for (let i = 0; i < 20; i++) req = req.field(`f${i}`, 'y'.repeat(1_000_000));
    const res = await req.attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'A multipart text field may hold at most 64 KiB (MULTIPART_MAX_FIELD_BYTES).' });
    expect(t.store.product_images.size).toBe(before);
    expect(t.errors).toEqual([]);
  });

  it('When more text fields are sent than allowed, then 413 naming the count', async () => {
    const t = await served();
    let req = upload(t);
    for (let i = 0; i < 17; i++) req = req.field(`f${i}`, 'y');
    const res = await req.attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'A multipart body may have at most 16 text fields (MULTIPART_MAX_FIELDS).' });
  });

  it('When the whole body passes the total, then 413 naming the total, though each part is within its own limit', async () => {
    const t = await served({ multipart: { maxFields: 16, maxFieldBytes: 64 * KiB, maxTotalBytes: 256 * KiB } });
    let req = upload(t);
    for (let i = 0; i < 8; i++) req = req.field(`f${i}`, 'y'.repeat(60 * KiB));
    const res = await req.attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The multipart body is larger than 256 KiB (MULTIPART_MAX_TOTAL_BYTES).' });
    expect(t.errors).toEqual([]);
  });

  it('When the file is larger than 5 MiB, then 413 naming 5 MiB', async () => {
    const t = await served({ multipart: { maxFields: 16, maxFieldBytes: 64 * KiB, maxTotalBytes: 8 * MiB } });
    const res = await upload(t).attach('file', Buffer.concat([PNG, Buffer.alloc(5 * MiB)]), { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'The uploaded file is larger than 5 MiB.' });
  });

  it('When an upload keeps within every limit, then it is created', async () => {
    const t = await served();
    const res = await upload(t)
      .field('note', 'y'.repeat(60 * KiB))
      .attach('file', PNG, { filename: 'a.png', contentType: 'image/png' });
    expect(res.status).toBe(201);
  });
});
