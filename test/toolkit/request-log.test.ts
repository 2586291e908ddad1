import { describe, expect, it } from 'vitest';
import { formatRequestLog, isLogged, requestLogLevel } from '../../src/http/request-log.js';

const at = new Date('2024-09-02T10:00:00.000Z');

describe('request log line', () => {
  it('When a request finishes, then one JSON line carries method, path, operationId, status and duration', () => {
    const line = formatRequestLog({ at, method: 'get', url: '/2024-09/products?page=2&per_page=5', operationId: 'listProducts', status: 200, durationMs: 12.345, workspace: 'default' });
    expect(line).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({
      time: '2024-09-02T10:00:00.000Z',
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/2024-09/products',
      query: 'page=2&per_page=5',
      operation_id: 'listProducts',
      status: 200,
      duration_ms: 12.3,
      workspace: 'default',
    });
  });

  it('When the query carries a code or token, then the value is redacted', () => {
    const line = formatRequestLog({ at, method: 'GET', url: '/retailer/callback?code=SECRETCODE&state=abc&access_token=tok', status: 302, durationMs: 1 });
    expect(line).not.toMatch(/SECRETCODE|tok\b/);
    expect(JSON.parse(line).query).toBe('code=[REDACTED]&state=abc&access_token=[REDACTED]');
  });

  it('When no operation matched, then operation_id is null and there is no query field', () => {
    const parsed = JSON.parse(formatRequestLog({ at, method: 'GET', url: '/nope', status: 404, durationMs: 0.04 }));
    expect(parsed).toMatchObject({ operation_id: null, status: 404, duration_ms: 0 });
    expect(parsed).not.toHaveProperty('query');
  });

  it('When the status is 5xx, then the line is an error; levels filter as configured', () => {
    expect(requestLogLevel(500)).toBe('error');
    expect(requestLogLevel(404)).toBe('info');
    expect(isLogged('info', 'info')).toBe(true);
    expect(isLogged('warn', 'info')).toBe(false);
    expect(isLogged('warn', 'error')).toBe(true);
    expect(isLogged('silent', 'error')).toBe(false);
    expect(isLogged('debug', 'info')).toBe(true);
  });
});
