import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

const binary = (res: request.Response, callback: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};

describe('the favicon', () => {
  it('When a browser asks for /favicon.ico, then it gets a 16 x 16 icon it may cache for a day', async () => {
    const { app } = await testApp();
    const res = await request(app).get('/favicon.ico').buffer(true).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
    const body = res.body as Buffer;
    // ICONDIR: reserved 0, type 1 (icon), one image of 16 x 16 at 32 bits per pixel.
    expect([body.readUInt16LE(0), body.readUInt16LE(2), body.readUInt16LE(4), body[6], body[7], body.readUInt16LE(12)]).toEqual([0, 1, 1, 16, 16, 32]);
    expect(body.readUInt32LE(18) + body.readUInt32LE(14)).toBe(body.length);
  });

  it('When the browser already holds it (If-None-Match), then it is answered 304 without a body', async () => {
    const { app } = await testApp();
    const first = await request(app).get('/favicon.ico');
    const again = await request(app).get('/favicon.ico').set('If-None-Match', first.headers.etag!);
    expect(again.status).toBe(304);
  });
});
