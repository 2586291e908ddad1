// The forms outside tools send (curl, Postman through openapi-to-postmanv2 + newman, Dredd), each answered as the
// contract says: reserved characters typed as documented, optional JSON bodies that are not objects.
import request from 'supertest';
import { beforeEach, describe, expect, it } from 'vitest';
import { demo, testApp, type TestApp } from '../helpers/app.js';
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

describe("a oneOf body's 422 names the fields of the branch the body meant", () => {
  /** What openapi-to-postmanv2 generates for createSandboxWorkspace: the bundle branch, placeholders for values. */
  const POSTMAN_BODY = {
    format: '<string>',
    format_version: '<integer>',
    contract: { version: '<string>', sha256: '<string>' },
    seed: '<integer>',
    seed_scheme: '<string>',
    clock: { offset_ms: '<integer>' },
    ids: {},
    changes: {},
    uploads: [],
    journal: [],
    coverage: {},
  };

  it("When Postman's generated bundle body is sent, then 422 names its discriminating field alone, not every other branch's errors", async () => {
    const res = await request(t.app).post('/_sandbox/workspaces').send(POSTMAN_BODY);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The format field must be "commerce-operations-sandbox/workspace-bundle".',
      errors: { format: ['The format field must be "commerce-operations-sandbox/workspace-bundle".'] },
    });
  });

  it('When {"format":"x"} is sent, then 422 names format only', async () => {
    const res = await request(t.app).post('/_sandbox/workspaces').send({ format: 'x' });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['format']);
  });

  it("When the format is right but the bundle lacks fields, then 422 names the bundle's missing fields and not the other branch's", async () => {
    const res = await request(t.app).post('/_sandbox/workspaces').send({ format: 'commerce-operations-sandbox/workspace-bundle' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toHaveProperty('format_version', ['The format_version field is required.']);
    expect(res.body.errors).not.toHaveProperty('body');
  });

  it('When the body holds only fields no branch declares, then it meant the branch that takes fields: 422 names its missing discriminating field alone', async () => {
    const res = await request(t.app).post('/_sandbox/workspaces').send({ name: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ format: ['The format field is required.'] });
  });

  it('When the body is a JSON array, then 422 says once that it must be an object, as every branch is one', async () => {
    const res = await request(t.app).post('/_sandbox/workspaces').set('Content-Type', 'application/json').send('[]');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The body field must be object.', errors: { body: ['The body field must be object.'] } });
  });

  it('When Postman sends the empty-create branch ({}), then the workspace is created', async () => {
    const res = await request(t.app).post('/_sandbox/workspaces').send({});
    expect(res.status).toBe(201);
  });
});

describe('replay: every answer belongs to the world its token names', () => {
  it("When a workspace token gets a 405 and a 404 route, then they are in that workspace's journal and export, not the default world's", async () => {
    const ws = (await request(t.app).post('/_sandbox/workspaces')).body.data as { id: string; tokens: { owner: string } };
    const auth = { Authorization: `Bearer ${ws.tokens.owner}` };
    expect((await request(t.app).patch('/2024-09/merchants').set(auth)).status).toBe(405);
    expect((await request(t.app).get('/2024-09/no-such-thing').set(auth)).status).toBe(404);
    const mine = await request(t.app).get('/_sandbox/requests').set(auth);
    expect(mine.body.data.map((e: { status: number; workspace: string }) => [e.status, e.workspace])).toEqual([
      [404, ws.id],
      [405, ws.id],
    ]);
    const defaults = await request(t.app).get('/_sandbox/requests?workspace=default');
    expect(defaults.body.data.filter((e: { status: number }) => e.status === 405 || e.status === 404)).toEqual([]);
    const exported = await request(t.app).get(`/_sandbox/workspaces/${ws.id}/export`).set(auth);
    expect(exported.status).toBe(200);
    expect(exported.body.journal.map((e: { status: number }) => e.status)).toEqual(expect.arrayContaining([404, 405]));
  });

  it("When the token's workspace prefix is forged, then the refusal stays in the default world's journal", async () => {
    const ws = (await request(t.app).post('/_sandbox/workspaces')).body.data as { id: string };
    await request(t.app).patch('/2024-09/merchants').set('Authorization', `Bearer ws_${ws.id}.forged-secret-0000000000`);
    const defaults = await request(t.app).get('/_sandbox/requests?workspace=default&status=405');
    expect(defaults.body.data).toHaveLength(1);
  });
});

describe('coverage: answers forced with Prefer: code are marked, not counted', () => {
  it('When deleteMerchant 204 is forced with Prefer: code=204, then coverage lists 204 as forced and missing, not answered, and the merchant still exists', async () => {
    const forced = await request(t.app).delete(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner')).set('Prefer', 'code=204');
    expect(forced.status).toBe(204);
    expect((await request(t.app).get(`/2024-09/merchants/${demo.merchant}`).set(t.auth('owner'))).status).toBe(200);
    const report = (await request(t.app).get('/_sandbox/coverage')).body.data;
    const op = report.operations.find((o: { operation_id: string }) => o.operation_id === 'deleteMerchant');
    expect(op).toMatchObject({ answered: [], forced: ['204'] });
    expect(op.missing).toContain('204');
  });
});
