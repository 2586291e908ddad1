import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { contractOperations, deref, paramsOf } from '../helpers/contract-requests.js';

const RELAY = '/2024-09/channels/retailer/cccccccc-cccc-4ccc-8ccc-ccccccccc001/call/sellers%2Fv1%2FmarketplaceParticipations';
const exposed = (res: request.Response) => String(res.headers['access-control-expose-headers'] ?? '').split(/,\s*/);

describe('CORS on the sandbox app', () => {
  it('When a browser on another origin relays a call, then the headers it needs are exposed to its script', async () => {
    const t = await testApp();
    const res = await request(t.app).get(RELAY).set(t.auth('owner')).set('Origin', 'https://docs.example.com').set('Prefer', 'retailer-fault=throttle');
    expect(res.status).toBe(429);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    for (const header of ['X-Retailer-Status', 'Retry-After', 'Preference-Applied', 'Sandbox-Prefer-Ignored', 'Location']) {
      expect(exposed(res)).toContain(header);
    }
    expect(res.headers['retry-after']).toBe('1');
  });

  it('When the origin is on a configured list, then it is echoed and the same headers are exposed', async () => {
    const t = await testApp({ corsOrigins: ['https://docs.example.com'] });
    const res = await request(t.app).get(RELAY).set(t.auth('owner')).set('Origin', 'https://docs.example.com');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://docs.example.com');
    expect(exposed(res)).toEqual(expect.arrayContaining(['X-Retailer-Status', 'Retry-After', 'Preference-Applied']));
    expect(res.headers['x-retailer-status']).toBe('200');
  });
});

describe('CORS grants what the contract documents', () => {
  const headerParams = [
    ...new Set(
      contractOperations.flatMap((op) =>
        paramsOf(op)
          .filter((p) => p.in === 'header')
          .map((p) => p.name),
      ),
    ),
  ];
  // Every header a JSON answer documents, which a script on another origin reads. A page's own policy
  // (Content-Security-Policy, on text/html answers only) is for the browser, not a script.
  const responseHeaders = [
    ...new Set(
      contractOperations.flatMap((op) =>
        Object.values(op.operation.responses as Record<string, unknown>)
          .map((r) => deref(r as { headers?: Record<string, unknown>; content?: Record<string, unknown> }))
          .filter((r) => r.content === undefined || 'application/json' in r.content)
          .flatMap((r) => Object.keys(r.headers ?? {})),
      ),
    ),
  ];

  it('When a script on another origin polls the journal with If-None-Match, then its preflight grants the header and the answer exposes ETag', async () => {
    const t = await testApp();
    expect(headerParams).toContain('If-None-Match');
    const preflight = await request(t.app)
      .options('/_sandbox/requests')
      .set('Origin', 'https://docs.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', ['authorization', ...headerParams.map((h) => h.toLowerCase())].join(','));
    expect(preflight.status).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-headers'] ?? '')
      .toLowerCase()
      .split(/,\s*/);
    for (const header of headerParams) expect(allowed).toContain(header.toLowerCase());

    const first = await request(t.app).get('/_sandbox/requests').set(t.auth('owner')).set('Origin', 'https://docs.example.com');
    expect(first.status).toBe(200);
    expect(first.headers.etag).toBeDefined();
    expect(exposed(first).map((h) => h.toLowerCase())).toContain('etag');
  });

  it('When any answer goes to another origin, then every response header the contract documents for JSON answers is exposed', async () => {
    const t = await testApp();
    expect(responseHeaders).toEqual(expect.arrayContaining(['ETag', 'X-Request-Id', 'Allow']));
    const res = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Origin', 'https://docs.example.com');
    const names = exposed(res).map((h) => h.toLowerCase());
    for (const header of responseHeaders) expect(names).toContain(header.toLowerCase());
  });
});
