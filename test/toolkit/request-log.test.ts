import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createRequestLogger, logRequest, requestLogLevel } from '../../src/observe/request-log.js';
import { testApp } from '../helpers/app.js';

function logged(level: Parameters<typeof createRequestLogger>[0]['level'] = 'info') {
  const lines: string[] = [];
  return { lines, logger: createRequestLogger({ level, write: (line) => lines.push(line) }) };
}

describe('request log line', () => {
  it('When a request finishes, then one JSON line carries method, path, operationId, status, duration and request id', () => {
    const { lines, logger } = logged();
    logRequest(logger, {
      method: 'get',
      url: '/2024-09/products?page=2&per_page=5',
      operationId: 'listProducts',
      status: 200,
      durationMs: 12.345,
      workspace: 'default',
      requestId: 'r-1',
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    const { time, ...rest } = JSON.parse(lines[0]!);
    expect(Number.isNaN(Date.parse(time))).toBe(false);
    expect(rest).toEqual({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/2024-09/products',
      query: 'page=2&per_page=5',
      operation_id: 'listProducts',
      status: 200,
      duration_ms: 12.3,
      workspace: 'default',
      request_id: 'r-1',
    });
  });

  it('When the query carries a code, a consent state or a token, then each value is redacted and the rest kept', () => {
    const { lines, logger } = logged();
    logRequest(logger, { method: 'GET', url: '/retailer/callback?code=SECRETCODE&state=abc&access_token=tok&page=2', status: 302, durationMs: 1 });
    expect(lines[0]).not.toMatch(/SECRETCODE|tok\b/);
    expect(JSON.parse(lines[0]!).query).toBe('code=[REDACTED]&state=[REDACTED]&access_token=[REDACTED]&page=2');
  });

  it('When no operation matched, then operation_id is null and there is no query field', () => {
    const { lines, logger } = logged();
    logRequest(logger, { method: 'GET', url: '/nope', status: 404, durationMs: 0.04 });
    const parsed = JSON.parse(lines[0]!);
    expect(parsed).toMatchObject({ operation_id: null, status: 404, duration_ms: 0 });
    expect(parsed).not.toHaveProperty('query');
  });

  it('When the status is 5xx, then the line is an error; docs assets are debug; the configured level filters', () => {
    expect(requestLogLevel(500, '/docs/')).toBe('error');
    expect(requestLogLevel(404, '/2024-09/x')).toBe('info');
    for (const path of ['/docs', '/docs/swagger-ui.css', '/favicon.ico', '/openapi.json', '/openapi.yaml']) expect(requestLogLevel(200, path)).toBe('debug');
    const info = logged('info');
    logRequest(info.logger, { method: 'GET', url: '/docs/swagger-ui-bundle.js', status: 200, durationMs: 1 });
    logRequest(info.logger, { method: 'GET', url: '/2024-09/merchants', status: 200, durationMs: 1 });
    expect(info.lines.map((l) => JSON.parse(l).path)).toEqual(['/2024-09/merchants']);
    const debug = logged('debug');
    logRequest(debug.logger, { method: 'GET', url: '/docs/swagger-ui-bundle.js', status: 200, durationMs: 1 });
    expect(JSON.parse(debug.lines[0]!).level).toBe('debug');
    const warn = logged('warn');
    logRequest(warn.logger, { method: 'GET', url: '/2024-09/merchants', status: 200, durationMs: 1 });
    logRequest(warn.logger, { method: 'GET', url: '/2024-09/merchants', status: 500, durationMs: 1 });
    expect(warn.lines.map((l) => JSON.parse(l).level)).toEqual(['error']);
    const silent = logged('silent');
    logRequest(silent.logger, { method: 'GET', url: '/x', status: 500, durationMs: 1 });
    expect(silent.lines).toEqual([]);
  });

  it('When the log is pretty, then lines are readable text rather than JSON', async () => {
    const chunks: string[] = [];
    const logger = createRequestLogger({ level: 'info', pretty: true, write: (line) => chunks.push(line) });
    logRequest(logger, { method: 'GET', url: '/2024-09/merchants', status: 200, durationMs: 1 });
    // pino-pretty pipes into the writer: its line arrives on a later turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    const text = chunks.join('');
    expect(text).toContain('GET /2024-09/merchants 200 1 ms');
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('the log lines of the sandbox reading itself', () => {
  // The inspector polls the journal every 2 s (and the coverage): at info, an open inspector wrote a line every
  // 2 s into the terminal where a developer reads their client's requests.
  const paths = (lines: string[]) =>
    lines
      .map((l) => JSON.parse(l) as { level: string; method: string; path: string; status: number })
      .map((l) => `${l.level} ${l.method} ${l.path} ${l.status}`);

  it('When the inspector page, its script, the journal and the coverage are read, then their lines are debug; a clear of the journal and a refused read stay info', async () => {
    const lines: string[] = [];
    const t = await testApp({ logLevel: 'debug' }, { requestLog: (line) => lines.push(line) });
    await request(t.app).get('/_sandbox/inspector').expect(200);
    await request(t.app).get('/_sandbox/inspector/inspector.js').expect(200);
    const first = await request(t.app).get('/_sandbox/requests').expect(200);
    await request(t.app).get('/_sandbox/requests').set('If-None-Match', first.headers.etag!).expect(304);
    await request(t.app).get('/_sandbox/coverage').expect(200);
    await request(t.app).get('/_sandbox/requests?limit=0').expect(422);
    await request(t.app).delete('/_sandbox/requests').expect(204);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    expect(paths(lines)).toEqual([
      'debug GET /_sandbox/inspector 200',
      'debug GET /_sandbox/inspector/inspector.js 200',
      'debug GET /_sandbox/requests 200',
      'debug GET /_sandbox/requests 304',
      'debug GET /_sandbox/coverage 200',
      'info GET /_sandbox/requests 422',
      'info DELETE /_sandbox/requests 204',
      'info GET /2024-09/merchants 200',
    ]);
  });
});
