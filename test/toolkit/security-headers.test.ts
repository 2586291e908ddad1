// Every answer says nosniff; HTML pages forbid being framed (CSP frame-ancestors 'none', X-Frame-Options DENY), and
// the docs page's policy lets exactly its own inline scripts run. Through the real server, both the answers
// Express makes and the ones sent in front of it (a created workspace, a replayed read).
import { createHash } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';

type Headers = Record<string, string | undefined>;

const expectFrameProtection = (headers: Headers) => {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['content-security-policy']).toMatch(/(^|;)frame-ancestors 'none'(;|$)/);
  expect(headers['x-frame-options']).toBe('DENY');
};

describe('security headers', () => {
  it('When an HTML page is answered (landing, docs, consent page, its error page), then it carries nosniff and frame protection', async () => {
    const t = await testApp();
    const url = await request(t.app).get('/2024-09/channels/retailer/cccccccc-cccc-4ccc-8ccc-ccccccccc002/get-auth-url').set(t.auth('owner')).expect(200);
    const consent = new URL(url.body.url);
    for (const path of ['/', '/docs/', consent.pathname + consent.search, '/_retailer/authorize?state=unknown']) {
      const res = await request(t.app).get(path);
      expect(res.headers['content-type'], path).toMatch(/^text\/html/);
      expectFrameProtection(res.headers as Headers);
    }
    expect(t.errors).toEqual([]);
  });

  it('When a JSON answer is sent (a read, its replay, an error, a 404, a created workspace), then it carries nosniff', async () => {
    const t = await testApp();
    const read = () => request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    const answers = [
      await read(),
      await read(),
      await request(t.app).get('/2024-09/merchants').expect(401),
      await request(t.app).get('/2024-09/no-such-thing').set(t.auth('owner')).expect(404),
      await request(t.app).post('/_sandbox/workspaces').expect(201),
      await request(t.app).get('/openapi.json').expect(200),
    ];
    expect(t.cache.stats.hits).toBe(1);
    for (const res of answers) {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expectFrameProtection(res.headers as Headers);
    }
  });

  it('When the docs page is answered, then its script-src allows the hash of each inline script it carries and no other inline script', async () => {
    const t = await testApp();
    const page = await request(t.app).get('/docs/').expect(200);
    const policy = page.headers['content-security-policy'] as string;
    const scriptSrc = policy.split(';').find((d) => d.startsWith('script-src'))!;
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    const inline = [...page.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline.length).toBeGreaterThanOrEqual(2);
    for (const source of inline) expect(scriptSrc).toContain(`'sha256-${createHash('sha256').update(source).digest('base64')}'`);
  });
});
