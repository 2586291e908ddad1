import { describe, expect, it, vi } from 'vitest';
import { RequestJournal, type JournalRecordInput } from '../../src/observe/request-journal.js';
import { REDACTED, capBody, isSecretKey, redactBody, redactHeaders, redactQuery, redactUrl } from '../../src/observe/redact.js';

let n = 0;
const journal = (capacity?: number) => new RequestJournal({ capacity, now: () => new Date('2024-09-02T10:00:00.000Z'), newId: () => `id-${++n}` });

const req = (over: Partial<JournalRecordInput> = {}): JournalRecordInput => ({
  method: 'get',
  path: '/2024-09/merchants',
  operationId: 'listMerchants',
  status: 200,
  durationMs: 1.23456,
  ...over,
});

describe('request journal', () => {
  it('When requests are recorded, then they are listed newest first with the documented shape', () => {
    const j = journal();
    j.record(req({ path: '/a' }));
    j.record(req({ path: '/b', workspace: 'ws1', query: { page: '2' }, requestBody: { name: 'x' }, responseBody: { data: [] } }));
    expect(j.list().map((e) => e.path)).toEqual(['/b', '/a']);
    const second = j.list()[0];
    expect(second).toEqual({
      id: expect.any(String),
      at: '2024-09-02T10:00:00.000Z',
      workspace: 'ws1',
      method: 'GET',
      path: '/b',
      operation_id: 'listMerchants',
      status: 200,
      duration_ms: 1.23,
      request: { query: { page: '2' }, headers: {}, body: { name: 'x' }, body_truncated: false, ignored: [] },
      response: { body: { data: [] }, body_truncated: false },
    });
    expect(j.list()[1]!.workspace).toBe('default');
  });

  it('When entries are listed, then their fields come in the contract’s order, loaded and trail last, and nothing ignored is an empty list', () => {
    const j = journal();
    const trail = { answered_by: 'handler', route: { matched: true }, response_check: 'passed' } as const;
    j.record(req({ trail, loaded: { requestTruncated: true, responseTruncated: false }, headers: { host: 'h' } }));
    j.record(req());
    const [plain, loaded] = j.list();
    expect(Object.keys(plain!)).toEqual(['id', 'at', 'workspace', 'method', 'path', 'operation_id', 'status', 'duration_ms', 'request', 'response']);
    expect(Object.keys(plain!.request)).toEqual(['query', 'headers', 'body', 'body_truncated', 'ignored']);
    expect(plain!.request.ignored).toEqual([]);
    expect(Object.keys(loaded!).slice(-2)).toEqual(['loaded', 'trail']);
    expect(loaded).toMatchObject({ loaded: true, trail, request: { headers: { host: 'h' }, body_truncated: true }, response: { body_truncated: false } });
  });

  it('When more requests arrive than the capacity, then the oldest are dropped', () => {
    const j = journal(3);
    for (let i = 1; i <= 5; i++) j.record(req({ path: `/p${i}` }));
    expect(j.size).toBe(3);
    expect(j.list().map((e) => e.path)).toEqual(['/p5', '/p4', '/p3']);
  });

  it('When the capacity is not a positive integer, then the journal refuses to start', () => {
    expect(() => journal(0)).toThrow(/capacity/);
  });

  it('When filtering, then method, path (exact or prefix*), operationId, status (exact or class) and workspace combine', () => {
    const j = journal();
    j.record(req({ method: 'GET', path: '/2024-09/products', operationId: 'listProducts', status: 200, workspace: 'a' }));
    j.record(req({ method: 'POST', path: '/2024-09/products', operationId: 'createProduct', status: 422, workspace: 'a' }));
    j.record(req({ method: 'GET', path: '/2024-09/products/1', operationId: 'getProduct', status: 404, workspace: 'b' }));
    j.record(req({ method: 'GET', path: '/2024-09/merchants', operationId: 'listMerchants', status: 401, workspace: 'b' }));
    const ops = (f: Parameters<RequestJournal['list']>[0]) => j.list(f).map((e) => e.operation_id);
    expect(ops({ method: 'post' })).toEqual(['createProduct']);
    expect(ops({ path: '/2024-09/products' })).toEqual(['createProduct', 'listProducts']);
    expect(ops({ path: '/2024-09/products*' })).toEqual(['getProduct', 'createProduct', 'listProducts']);
    expect(ops({ operationId: 'getProduct' })).toEqual(['getProduct']);
    expect(ops({ status: 404 })).toEqual(['getProduct']);
    expect(ops({ status: '4xx' })).toEqual(['listMerchants', 'getProduct', 'createProduct']);
    expect(ops({ status: '422' })).toEqual(['createProduct']);
    expect(ops({ workspace: 'b', method: 'GET' })).toEqual(['listMerchants', 'getProduct']);
    expect(ops({ limit: 2 })).toEqual(['listMerchants', 'getProduct']);
  });

  it('When cleared, then it is empty; when cleared for one workspace, then the others remain in order', () => {
    const j = journal(4);
    for (const [i, ws] of ['a', 'b', 'a', 'b', 'a', 'b'].entries()) j.record(req({ path: `/p${i}`, workspace: ws }));
    j.clear('a');
    expect(j.list().map((e) => e.path)).toEqual(['/p5', '/p3', '/p1']);
    j.record(req({ path: '/p6' }));
    expect(j.list().map((e) => e.path)).toEqual(['/p6', '/p5', '/p3', '/p1']);
    j.clear();
    expect(j.list()).toEqual([]);
    expect(j.size).toBe(0);
  });

  it('When secrets are in headers, query or bodies, then they are recorded as [REDACTED] at any depth', () => {
    const j = journal();
    j.record(
      req({
        path: '/retailer/callback',
        headers: { Authorization: 'Bearer demo-owner-token', 'Content-Type': 'application/json', 'X-Other': 'bearer abc' },
        query: { code: 'auth-code-123', state: 'ws_abc.s1', page: '1' },
        requestBody: {
          access_token: 'Atza|secret',
          refresh_token: 'Atzr|secret',
          nested: [{ password: 'hunter2', token: 't', accessToken: 'camel', keep: 'me' }],
          code: 'USD',
        },
        responseBody: { data: { user: { id: 'u' }, token: 'sbx_new' } },
      }),
    );
    const e = j.list()[0]!;
    expect(e.request.headers).toEqual({
      authorization: `Bearer ${REDACTED}`,
      'content-type': 'application/json',
      'x-other': `bearer ${REDACTED}`,
    });
    expect(e.request.query).toEqual({ code: REDACTED, state: REDACTED, page: '1' });
    expect(e.request.body).toEqual({
      access_token: REDACTED,
      refresh_token: REDACTED,
      nested: [{ password: REDACTED, token: REDACTED, accessToken: REDACTED, keep: 'me' }],
      code: 'USD', // a body `code` is data (currency, country), not an OAuth code
    });
    expect(e.response.body).toEqual({ data: { user: { id: 'u' }, token: REDACTED } });
    expect(JSON.stringify(j.list())).not.toMatch(/secret|hunter2|demo-owner-token|sbx_new|auth-code-123/);
  });

  it('When a request is recorded, then the journal holds a redacted copy: later changes to the body do not reach it', () => {
    const j = journal();
    const body = { name: 'before', token: 'secret' };
    j.record(req({ requestBody: body }));
    body.name = 'after';
    expect(j.list()[0]!.request.body).toEqual({ name: 'before', token: REDACTED });
    body.name = 'later';
    expect(j.list()[0]!.request.body).toEqual({ name: 'before', token: REDACTED });
  });

  it('When replayed answers record the same body bytes, then the journal reads and redacts them once and each entry shows that copy', () => {
    const j = journal();
    const replayed = Buffer.from(JSON.stringify({ data: [{ id: 'm1', access_token: 'secret' }] }));
    const parse = vi.spyOn(JSON, 'parse');
    try {
      j.record(req({ responseJson: replayed }));
      j.record(req({ responseJson: replayed }));
      expect(parse).toHaveBeenCalledTimes(1);
    } finally {
      parse.mockRestore();
    }
    const [second, first] = j.list();
    expect(second!.response.body).toEqual({ data: [{ id: 'm1', access_token: REDACTED }] });
    expect(first!.response.body).toEqual(second!.response.body);
  });

  it('When a kept query object is recorded again, then the journal redacts it once', () => {
    const j = journal();
    let walks = 0;
    const query = {
      get page() {
        walks++;
        return '2';
      },
    };
    j.record(req({ query, kept: true }));
    j.record(req({ query, kept: true }));
    expect(walks).toBe(1);
    expect(j.list().map((e) => e.request.query)).toEqual([{ page: '2' }, { page: '2' }]);
  });

  it('When replayed answers record one large body, then every entry counts its bytes against the ring and shows it cut to the cap', () => {
    const j = new RequestJournal({ maxBodyBytes: 2000, maxWorkspaceBytes: 5000 });
    const replayed = Buffer.from(JSON.stringify({ data: Array.from({ length: 100 }, (_, i) => ({ id: `p${i}`, name: 'x'.repeat(40), client_secret: 's' })) }));
    for (let i = 0; i < 5; i++) j.record(req({ responseJson: replayed, kept: true }));
    expect(j.size).toBe(2);
    expect(j.bytesOf('default')).toBeGreaterThan(2 * 2000);
    expect(j.bytesOf('default')).toBeLessThanOrEqual(5000);
    for (const entry of j.list()) {
      expect(entry.response.body_truncated).toBe(true);
      const items = (entry.response.body as { data: { client_secret: string }[] }).data;
      expect(items.length).toBeGreaterThan(10);
      expect(items.length).toBeLessThan(100);
      expect(items[0]!.client_secret).toBe(REDACTED);
      expect(JSON.stringify(items)).not.toContain('"client_secret":"s"');
    }
  });
});

describe('redaction helpers', () => {
  it('When a body holds binary data, huge strings or cycles, then it stays small and finite', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const out = redactBody({ file: Buffer.from('abc'), big: 'x'.repeat(10_000), cyclic }) as Record<string, unknown>;
    expect(out.file).toBe('[binary 3 bytes]');
    expect(String(out.big)).toBe('x'.repeat(10_000));
    expect((out.cyclic as Record<string, unknown>).self).toBe('[circular]');
  });

  it('When a query carries an OAuth code or a token, then both are redacted', () => {
    expect(redactQuery({ code: 'c', token: 't', page: '1' })).toEqual({ code: REDACTED, token: REDACTED, page: '1' });
  });

  it('When headers carry cookies or a credential without scheme, then they are redacted', () => {
    expect(redactHeaders({ cookie: 'sid=1', authorization: 'rawtoken', accept: ['a', 'b'] })).toEqual({
      cookie: REDACTED,
      authorization: REDACTED,
      accept: 'a, b',
    });
  });

  it('When a URL has secret query parameters, then only their values are replaced', () => {
    expect(redactUrl('/cb?code=abc&state=s%20t&access_token=x&page=2')).toBe(`/cb?code=${REDACTED}&state=${REDACTED}&access_token=${REDACTED}&page=2`);
    expect(redactUrl('/2024-09/products?page=2')).toBe('/2024-09/products?page=2');
    expect(redactUrl('/x?refresh%5Ftoken=y')).toBe(`/x?refresh%5Ftoken=${REDACTED}`);
  });
});

describe('per-workspace rings', () => {
  it("When another workspace records more than the capacity, then this workspace's entries all stay", () => {
    const j = journal(10);
    for (let i = 0; i < 5; i++) j.record(req({ path: `/mine${i}`, workspace: 'mine' }));
    for (let i = 0; i < 1000; i++) j.record(req({ path: `/flood${i}`, workspace: 'flooder' }));
    expect(j.list({ workspace: 'mine' }).map((e) => e.path)).toEqual(['/mine4', '/mine3', '/mine2', '/mine1', '/mine0']);
    expect(j.list({ workspace: 'flooder' })).toHaveLength(10);
    expect(j.usage().workspaces.get('flooder')!.entries).toBe(10);
  });

  it('When every ring is listed, then the entries of all rings come merged newest first, limit applied', () => {
    const j = journal();
    for (const [i, ws] of ['a', 'b', 'c', 'a', 'c', 'b', 'a'].entries()) j.record(req({ path: `/p${i}`, workspace: ws }));
    expect(j.list().map((e) => e.path)).toEqual(['/p6', '/p5', '/p4', '/p3', '/p2', '/p1', '/p0']);
    expect(j.list({ limit: 3 }).map((e) => e.path)).toEqual(['/p6', '/p5', '/p4']);
    expect(j.list({ workspace: 'b' }).map((e) => e.path)).toEqual(['/p5', '/p1']);
  });

  it('When a ring passes its byte bound, then it drops its own oldest entries and keeps the newest', () => {
    const j = new RequestJournal({ maxBodyBytes: 1024, maxWorkspaceBytes: 8 * 1024 });
    for (let i = 0; i < 50; i++) j.record(req({ workspace: 'big', requestBody: { text: 'y'.repeat(4000) } }));
    j.record(req({ workspace: 'small' }));
    const usage = j.usage();
    expect(usage.workspaces.get('big')!.bytes).toBeLessThanOrEqual(8 * 1024);
    expect(usage.workspaces.get('big')!.entries).toBeGreaterThan(1);
    expect(usage.workspaces.get('small')!.entries).toBe(1);
  });

  it('When all rings together pass the total, then the ring holding most loses its oldest first, not the small ones', () => {
    const j = new RequestJournal({ maxBodyBytes: 1024, maxWorkspaceBytes: 64 * 1024, maxTotalBytes: 64 * 1024 });
    for (let i = 0; i < 5; i++) j.record(req({ workspace: 'quiet', path: `/q${i}` }));
    for (let i = 0; i < 500; i++) j.record(req({ workspace: 'loud', requestBody: { text: 'y'.repeat(2000) } }));
    const usage = j.usage();
    expect(usage.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(usage.workspaces.get('quiet')!.entries).toBe(5);
    expect(usage.workspaces.get('loud')!.entries).toBeGreaterThan(0);
  });

  it('When entries of many sizes come and go past the bounds, then every listing holds the newest whole, in order, counted in bytes', () => {
    const j = new RequestJournal({ capacity: 7, maxBodyBytes: 4096, maxWorkspaceBytes: 6000 });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const sent: { path: string; text: string }[] = [];
    for (let i = 0; i < 400; i++) {
      // Some entries are larger than the buffer holds at the time, some multi-byte, some empty.
      const text = (i % 3 === 0 ? 'é' : 'x').repeat(next() % (i % 50 === 0 ? 3000 : 900));
      sent.push({ path: `/p${i}`, text });
      j.record(req({ path: `/p${i}`, workspace: 'w', responseBody: { text } }));
      const listed = j.list({ workspace: 'w' });
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.length).toBeLessThanOrEqual(7);
      expect(listed.map((e) => [e.path, (e.response.body as { text: string }).text])).toEqual(
        sent
          .slice(-listed.length)
          .reverse()
          .map((s) => [s.path, s.text]),
      );
      const bytes = listed.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e)), 0);
      expect(j.bytesOf('w')).toBe(bytes);
      if (listed.length > 1) expect(bytes).toBeLessThanOrEqual(6000);
    }
  });

  it('When a workspace is gone, then a request finishing afterwards makes it no ring', () => {
    const live = new Set(['default']);
    const j = new RequestJournal({ accepts: (ws) => live.has(ws) });
    j.record(req({ workspace: 'gone' }));
    j.record(req());
    expect([...j.usage().workspaces.keys()]).toEqual(['default']);
  });

  it('When a workspace is cleared, then its ring and the bytes it held are freed', () => {
    const j = journal();
    j.record(req({ workspace: 'a', requestBody: { text: 'z'.repeat(1000) } }));
    j.record(req({ workspace: 'b' }));
    j.clear(new Set(['a']));
    expect([...j.usage().workspaces.keys()]).toEqual(['b']);
    expect(j.usage().bytes).toBe(j.usage().workspaces.get('b')!.bytes);
  });
});

describe('the body cap', () => {
  it('When a body is larger than the cap, then the entry keeps about the cap, marked body_truncated', () => {
    const j = new RequestJournal({ maxBodyBytes: 16 * 1024 });
    const items = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `item ${i}`, secret: 's' }));
    j.record(req({ requestBody: { items }, responseBody: { text: 'r'.repeat(100_000) } }));
    const e = j.list()[0]!;
    expect(e.request.body_truncated).toBe(true);
    expect(e.response.body_truncated).toBe(true);
    expect(JSON.stringify(e.request.body).length).toBeLessThan(16 * 1024 + 256);
    expect(JSON.stringify(e.response.body).length).toBeLessThan(16 * 1024 + 256);
    expect(String((e.response.body as { text: string }).text)).toMatch(/…\[truncated \d+ chars\]$/);
    expect(JSON.stringify(e.request.body)).not.toContain('"s"');
  });

  it('When a body has a __proto__ field, then the copy keeps it as data and its prototype stays Object.prototype', () => {
    const out = capBody(JSON.parse('{"__proto__":{"polluted":true},"a":1}'), 1024).value as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":true},"a":1}');
  });

  it('When a body is within the cap, then it is kept whole and not marked', () => {
    const out = capBody({ a: [1, 2, 3], b: 'x'.repeat(100) }, 1024);
    expect(out).toMatchObject({ value: { a: [1, 2, 3], b: 'x'.repeat(100) }, truncated: false });
  });

  it('When a body has 200,000 fields, then capping it reads only what fits', () => {
    const huge: Record<string, number> = {};
    for (let i = 0; i < 200_000; i++) huge[`k${i}`] = i;
    const out = capBody(huge, 1024);
    expect(out.truncated).toBe(true);
    expect(Object.keys(out.value as object).length).toBeLessThan(200);
  });
});

describe('secret names', () => {
  const secretNames = [
    'secret',
    'client_secret',
    'clientSecret',
    'SECRET_KEY',
    'password',
    'Password',
    'new_password',
    'token',
    'session_token',
    'sessionToken',
    'access_token',
    'refresh-token',
    'tokens',
    'private_key',
    'Private-Key',
    'api_key',
    'apiKey',
    'X-Api-Key',
    'state',
    'x-amz-access-token',
    'X-Amz-Access-Token',
    'authorization',
  ];

  it.each(secretNames)('When a body field at any depth is named %s, then its value is redacted', (name) => {
    const body = { [name]: 'v1', deep: { list: [{ [name]: { inner: 'v2' } }] } };
    expect(redactBody(body)).toEqual({ [name]: REDACTED, deep: { list: [{ [name]: REDACTED }] } });
  });

  it.each(secretNames)('When a query parameter is named %s, then it is redacted in the journal and in a logged URL', (name) => {
    expect(redactQuery({ [name]: 'v1', page: '2' })).toEqual({ [name]: REDACTED, page: '2' });
    expect(redactUrl(`/x?${encodeURIComponent(name)}=v1&page=2`)).toBe(`/x?${encodeURIComponent(name)}=${REDACTED}&page=2`);
  });

  it('When x-amz-access-token is a header, then its value is redacted; ordinary ids and codes in bodies are not', () => {
    expect(redactHeaders({ 'X-Amz-Access-Token': 'Atza|abc', accept: 'application/json' })).toEqual({
      'x-amz-access-token': REDACTED,
      accept: 'application/json',
    });
    for (const name of ['id', 'key', 'code', 'sku', 'status', 'kind']) expect(isSecretKey(name)).toBe(false);
  });

  it('When a URL in a body or a Referer carries a state or token, then only that parameter is redacted', () => {
    const url = 'http://127.0.0.1:4010/_retailer/authorize?application_id=app&state=ws_abc.st_123';
    expect(redactBody({ data: { url } })).toEqual({ data: { url: `http://127.0.0.1:4010/_retailer/authorize?application_id=app&state=${REDACTED}` } });
    expect(redactHeaders({ referer: url }).referer).toBe(`http://127.0.0.1:4010/_retailer/authorize?application_id=app&state=${REDACTED}`);
  });
});
