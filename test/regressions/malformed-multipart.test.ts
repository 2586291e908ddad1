// A multipart body that does not parse, as a client cut off mid-upload or a hand-built form sends it: its parser's
// refusal is the client's malformed body (400, documented on the operation), never a 500.
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { testApp, type TestApp } from '../helpers/app.js';

const IMAGES = `/2024-09/products/${DEMO_PRODUCT_ID}/images`;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const part = (headers: string) => `--zz\r\n${headers}\r\n\r\n`;

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

const BODIES: [string, Buffer][] = [
  ['no bytes', Buffer.alloc(0)],
  ['bytes without its boundary', Buffer.from('not a form at all')],
  ['a part header that does not parse', Buffer.from(`${part('Garbage')}v\r\n--zz--\r\n`)],
  [
    'a file cut off before the closing boundary',
    Buffer.concat([Buffer.from(part('Content-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png')), PNG]),
  ],
  ['a text field and no closing boundary', Buffer.from(`${part('Content-Disposition: form-data; name="a"')}v`)],
];

describe('multipart bodies that do not parse', () => {
  it.each(BODIES)('When an image upload sends %s, then 400 naming the malformed multipart body, never 500', async (_name, body) => {
    const res = await request(t.app).post(IMAGES).set(t.auth('owner')).set('Content-Type', 'multipart/form-data; boundary=zz').send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.message).toMatch(/^The multipart body is malformed: /);
    expect(t.errors).toEqual([]);
  });

  it.each(['gzip', 'br', 'deflate'])(
    'When an image upload is sent with Content-Encoding %s, then 415 naming the encoding: a multipart body is read as sent',
    async (encoding) => {
      const form = Buffer.from(`${part('Content-Disposition: form-data; name="url"')}https://images.example/a.png\r\n--zz--\r\n`);
      const res = await request(t.app)
        .post(IMAGES)
        .set(t.auth('owner'))
        .set('Content-Type', 'multipart/form-data; boundary=zz')
        .set('Content-Encoding', encoding)
        .send(encoding === 'gzip' ? gzipSync(form) : form);
      expect(res.status, JSON.stringify(res.body)).toBe(415);
      expect(res.body).toEqual({ message: `unsupported content encoding "${encoding}"` });
      expect(t.errors).toEqual([]);
    },
  );
});
