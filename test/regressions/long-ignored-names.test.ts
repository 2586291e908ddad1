// Fields the contract does not name are reported by name, in the Sandbox-Ignored-Fields header and the journal.
// Names have no length of their own: 20 names of 1,000 characters made a 20 KB header, past the 16 KiB a Node.js
// client (fetch, node:http) reads, so the client saw a parse error for a merchant that had been created; the
// journal entry held every name whole (900 KB for a 900 KB body), though it cuts bodies to 16 KiB.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

const longNames = (count: number, length: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`${String(i).padStart(4, '0')}${'x'.repeat(length)}`, i]));

/** Posts `body` with node:http, whose parser refuses a response head over 16 KiB, as fetch's does. */
function postWithNodeHttp(server: http.Server, body: unknown): Promise<{ status: number; header: string }> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        port,
        host: '127.0.0.1',
        agent: false,
        path: '/2024-09/merchants',
        method: 'POST',
        headers: { authorization: 'Bearer demo-owner-token', 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode!, header: String(res.headers['sandbox-ignored-fields'] ?? '') });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('long names of ignored fields', () => {
  it('When 30 ignored fields have names of 1,000 characters, then a Node.js client reads the 201, whose header names the first ones cut short and counts the rest', async () => {
    const t = await testApp();
    const answer = await postWithNodeHttp(t.app, { name: 'Long Names Co', ...longNames(30, 1000) });
    expect(answer.status).toBe(201);
    expect(answer.header.length).toBeLessThanOrEqual(8192);
    expect(answer.header).toMatch(/^body\.0000x+\.\.\., /);
    expect(answer.header).toMatch(/\(\d+ more\)$/);
  });

  it('When a body of 900 ignored fields with names of 1,000 characters is journaled, then its entry keeps about 16 KiB of names and counts the rest', async () => {
    const t = await testApp();
    await request(t.app)
      .post('/2024-09/merchants')
      .set(t.auth('owner'))
      .set('X-Request-Id', 'long-names')
      .send({ name: 'Long Names Co', ...longNames(900, 1000) })
      .expect(201);
    const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'long-names' }).set(t.auth('owner'));
    const ignored = journal.body.data[0].request.ignored as string[];
    expect(JSON.stringify(ignored).length).toBeLessThanOrEqual(20 * 1024);
    expect(ignored[0]).toBe(`body.0000${'x'.repeat(1000)}`);
    expect(ignored.at(-1)).toMatch(/^\(\d+ more\)$/);
    const more = Number(/\d+/.exec(ignored.at(-1)!)![0]);
    expect(ignored.length - 1 + more).toBe(900);
  });

  it('When a few short names are ignored, then the header and the journal name each whole, with no count', async () => {
    const t = await testApp();
    const res = await request(t.app).post('/2024-09/merchants').set(t.auth('owner')).set('X-Request-Id', 'short').send({ name: 'Short', a: 1, b: 2 });
    expect(res.headers['sandbox-ignored-fields']).toBe('body.a, body.b');
    const journal = await request(t.app).get('/_sandbox/requests').query({ id: 'short' }).set(t.auth('owner'));
    expect(journal.body.data[0].request.ignored).toEqual(['body.a', 'body.b']);
  });
});
