import { describe, expect, it } from 'vitest';
import { RequestJournal, type JournalRecordInput } from '../../src/sandbox/request-journal.js';
import { REDACTED, redactBody, redactHeaders, redactQuery, redactUrl } from '../../src/sandbox/redact.js';

let n = 0;
const journal = (capacity?: number) =>
  new RequestJournal({ capacity, now: () => new Date('2024-09-02T10:00:00.000Z'), newId: () => `id-${++n}` });

const req = (over: Partial<JournalRecordInput> = {}): JournalRecordInput => ({
  method: 'get',
  path: '/2024-09/merchants',
  operationId: 'listMerchants',
  status: 200,
  durationMs: 3.14159,
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
      duration_ms: 3.14,
      request: { query: { page: '2' }, headers: {}, body: { name: 'x' }, ignored: [] },
      response: { body: { data: [] } },
    });
    expect(j.list()[1]!.workspace).toBe('default');
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
    expect(j.list().map((e) => e.path)).toEqual(['/p5', '/p3']);
    j.record(req({ path: '/p6' }));
    expect(j.list().map((e) => e.path)).toEqual(['/p6', '/p5', '/p3']);
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
        query: { code: 'auth-code-123', state: 's1' },
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
    expect(e.request.query).toEqual({ code: REDACTED, state: 's1' });
    expect(e.request.body).toEqual({
      access_token: REDACTED,
      refresh_token: REDACTED,
      nested: [{ password: REDACTED, token: REDACTED, accessToken: REDACTED, keep: 'me' }],
      code: 'USD', // a body `code` is data (currency, country), not an OAuth code
    });
    expect(e.response.body).toEqual({ data: { user: { id: 'u' }, token: REDACTED } });
    expect(JSON.stringify(j.list())).not.toMatch(/secret|hunter2|demo-owner-token|sbx_new|auth-code-123/);
  });

  it('When an entry has been listed, then it is a redacted copy: later changes to what was recorded do not reach it', () => {
    // Recording keeps references (bodies are redacted on first read, not on every request); the app records only
    // once a response has finished, when nothing changes them any more.
    const j = journal();
    const body = { name: 'before', token: 'secret' };
    j.record(req({ requestBody: body }));
    expect(j.list()[0]!.request.body).toEqual({ name: 'before', token: REDACTED });
    body.name = 'after';
    expect(j.list()[0]!.request.body).toEqual({ name: 'before', token: REDACTED });
  });

  it('When replayed answers record the same body object, then the journal redacts it once and each entry shows that copy', () => {
    const j = journal();
    const replayed = { data: [{ id: 'm1', access_token: 'secret' }] };
    j.record(req({ responseBody: replayed }));
    j.record(req({ responseBody: replayed }));
    const [second, first] = j.list();
    expect(second!.response.body).toEqual({ data: [{ id: 'm1', access_token: REDACTED }] });
    expect(second!.response.body).toBe(first!.response.body);
  });
});

describe('redaction helpers', () => {
  it('When a body holds binary data, huge strings or cycles, then it stays small and finite', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const out = redactBody({ file: Buffer.from('abc'), big: 'x'.repeat(10_000), cyclic }) as Record<string, unknown>;
    expect(out.file).toBe('[binary 3 bytes]');
    expect(String(out.big)).toMatch(/truncated 1808 chars/);
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
    expect(redactUrl('/cb?code=abc&state=s%20t&access_token=x')).toBe(`/cb?code=${REDACTED}&state=s%20t&access_token=${REDACTED}`);
    expect(redactUrl('/2024-09/products?page=2')).toBe('/2024-09/products?page=2');
    expect(redactUrl('/x?refresh%5Ftoken=y')).toBe(`/x?refresh%5Ftoken=${REDACTED}`);
  });
});
