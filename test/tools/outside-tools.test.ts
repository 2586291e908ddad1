// The forms outside tools send (curl, Postman through openapi-to-postmanv2 + newman, Dredd), each answered as the
// contract says: reserved characters typed as documented, optional JSON bodies that are not objects.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../helpers/app.js';
import { channels, connect, relayPath } from '../channels/support.js';

let t: TestApp;
beforeEach(async () => {
  t = await testApp();
});

describe('query parameters whose documented values hold reserved characters, sent as typed', () => {
  it('When curl sends the journal filter ?path=/2024-09/products* unencoded, then 200 with only the products requests', async () => {
    await request(t.app).get('/2024-09/products').set(t.auth('owner'));
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner'));
    const res = await request(t.app).get('/_sandbox/requests?path=/2024-09/products*');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.map((e: { path: string }) => e.path)).toEqual(['/2024-09/products']);
  });

  it('When the filter is percent-encoded but its * is typed, then it reads the same', async () => {
    await request(t.app).get('/2024-09/products').set(t.auth('owner'));
    const res = await request(t.app).get('/_sandbox/requests?path=%2F2024-09%2Fproducts*');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(1);
  });

  it('When the relay query holds a date-time typed with its colons, then it is relayed, not refused', async () => {
    await connect(t, channels.connected);
    const res = await request(t.app)
      .get(`${relayPath(channels.connected, 'orders%2Fv0%2Forders')}?MarketplaceIds=ATVPDKIKX0DER&CreatedAfter=2024-01-01T00:00:00Z`)
      .set(t.auth('owner'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('optional JSON bodies that are not objects', () => {
  const FEEDS = 'feeds%2F2021-06-30%2Ffeeds';
  for (const method of ['post', 'put'] as const) {
    it(`When a ${method.toUpperCase()} relay says application/json and sends null, then 422 naming the body`, async () => {
      await connect(t, channels.connected);
      const res = await request(t.app)[method](relayPath(channels.connected, FEEDS)).set(t.auth('owner')).set('Content-Type', 'application/json').send('null');
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['body']);
    });

    it(`When a ${method.toUpperCase()} relay says application/json and sends no bytes, then 422 naming the body`, async () => {
      await connect(t, channels.connected);
      const res = await request(t.app)[method](relayPath(channels.connected, FEEDS)).set(t.auth('owner')).set('Content-Type', 'application/json');
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(['body']);
    });

    it(`When a ${method.toUpperCase()} relay sends no body and no Content-Type, then it is relayed (the body is optional)`, async () => {
      await connect(t, channels.connected);
      const res = await request(t.app)[method](relayPath(channels.connected, FEEDS)).set(t.auth('owner'));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    });
  }
});

describe('coverage negotiated on Accept, as Dredd and HTTP libraries send it', () => {
  it('When Accept is application/xml and there is no format, then the answer is the JUnit report', async () => {
    const res = await request(t.app).get('/_sandbox/coverage').set('Accept', 'application/xml');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/xml');
    expect(res.text).toMatch(/^<\?xml[^>]*>\s*<testsuites /);
  });

  it('When Accept is text/markdown, then the answer is the Markdown table', async () => {
    const res = await request(t.app).get('/_sandbox/coverage').set('Accept', 'text/markdown');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/markdown');
    expect(res.text).toMatch(/^### Contract coverage/);
  });

  it('When Accept is application/json, */* or absent, then the answer is JSON', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const call = request(t.app).get('/_sandbox/coverage');
      const res = accept === undefined ? await call : await call.set('Accept', accept);
      expect([res.status, res.type], String(accept)).toEqual([200, 'application/json']);
      expect(res.body.data.totals).toBeDefined();
    }
  });

  it('When Accept weighs Markdown above XML (q), then Markdown; when text/* is all it allows, Markdown', async () => {
    const weighed = await request(t.app).get('/_sandbox/coverage').set('Accept', 'application/xml;q=0.5, text/markdown');
    expect(weighed.type).toBe('text/markdown');
    const text = await request(t.app).get('/_sandbox/coverage').set('Accept', 'text/*');
    expect(text.type).toBe('text/markdown');
  });

  it('When Accept allows none of the three forms, then 406 with a message naming them, as documented', async () => {
    const res = await request(t.app).get('/_sandbox/coverage').set('Accept', 'image/png');
    expect(res.status).toBe(406);
    expect(res.type).toBe('application/json');
    expect(res.body.message).toMatch(/application\/json, application\/xml, text\/markdown/);
  });

  it('When format is given, then it decides whatever Accept says', async () => {
    const res = await request(t.app).get('/_sandbox/coverage?format=markdown').set('Accept', 'image/png');
    expect([res.status, res.type]).toEqual([200, 'text/markdown']);
  });
});
