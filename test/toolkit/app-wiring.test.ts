import { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { defaultConfig } from '../../src/config.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { Worlds } from '../../src/worlds.js';
import { testApp, contract } from '../helpers/app.js';
import { worldModel } from '../../src/areas/world-model.js';

async function appWithLog(overrides: Partial<typeof defaultConfig> = {}) {
  const config = { ...defaultConfig, store: 'memory' as const, ...overrides };
  const worlds = new Worlds(await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: config.seed }));
  const lines: string[] = [];
  const runtime = createRuntime({ worlds, config, contract, requestLog: (l) => lines.push(l) });
  return { app: createApp(runtime), runtime, lines, worlds };
}

describe('the toolkit wired into the app', () => {
  it('When /docs, /openapi.json and /openapi.yaml are fetched, then the docs serve the contract with servers set to the request origin', async () => {
    const t = await testApp();
    const docs = await request(t.app).get('/docs/').expect(200);
    expect(docs.text).toContain('swagger');
    const json = await request(t.app).get('/openapi.json').set('Host', 'docs.example:8080').expect(200);
    expect(json.body.servers).toEqual([{ url: 'http://docs.example:8080', description: expect.any(String) }]);
    expect(Object.keys(json.body.paths)).toContain('/_sandbox/workspaces');
    const yaml = await request(t.app).get('/openapi.yaml').set('Host', '127.0.0.1:9999').expect(200);
    expect(yaml.text).toContain('url: http://127.0.0.1:9999');
    expect(docs.text).toContain('demo-owner-token');
  });

  it('When / is opened, then the landing page links docs and health and lists the demo tokens', async () => {
    const t = await testApp();
    const res = await request(t.app).get('/').expect(200);
    expect(res.type).toBe('text/html');
    for (const text of ['docs/', '_sandbox/health', 'demo-owner-token', 'demo-rival-token']) expect(res.text).toContain(text);
  });

  it('When a browser preflights from another origin, then CORS allows Authorization, Content-Type and Prefer without credentials', async () => {
    const t = await testApp();
    const res = await request(t.app)
      .options('/2024-09/merchants')
      .set('Origin', 'https://docs.example')
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, prefer')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-headers']).toMatch(/Authorization.*Content-Type.*Prefer/);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    const get = await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).set('Origin', 'https://docs.example').expect(200);
    expect(get.headers['access-control-allow-origin']).toBe('*');
  });

  it('When CORS origins are configured, then only those origins are granted', async () => {
    const t = await testApp({ corsOrigins: ['https://docs.example'] });
    const ok = await request(t.app).get('/_sandbox/health').set('Origin', 'https://docs.example').expect(200);
    expect(ok.headers['access-control-allow-origin']).toBe('https://docs.example');
    const refused = await request(t.app).get('/_sandbox/health').set('Origin', 'https://evil.example').expect(200);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('When a request is answered, then one JSON log line says method, path, operationId, status and duration, secrets redacted', async () => {
    const { app, lines } = await appWithLog();
    // An unknown query parameter is ignored; the line shows it all the same, without the secret.
    await request(app).get('/2024-09/users/current?access_token=SECRET').set('Authorization', 'Bearer demo-owner-token').expect(200);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/2024-09/users/current',
      operation_id: 'getCurrentUser',
      status: 200,
      workspace: 'default',
    });
    expect(line.query).toBe('access_token=[REDACTED]');
    expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    expect(lines[0]).not.toContain('SECRET');
    expect(lines[0]).not.toContain('demo-owner-token');
  });

  it('When a request is logged, then its line carries the answer’s X-Request-Id; docs assets only at debug', async () => {
    const { app, lines } = await appWithLog();
    const res = await request(app).get('/2024-09/users/current').set('Authorization', 'Bearer demo-owner-token').set('X-Request-Id', 'trace-7').expect(200);
    await request(app).get('/openapi.json').expect(200);
    await request(app).get('/docs/').expect(200);
    expect(lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ path: '/2024-09/users/current', request_id: res.headers['x-request-id'] })]);
    const debug = await appWithLog({ logLevel: 'debug' });
    await request(debug.app).get('/openapi.json').expect(200);
    expect(debug.lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ level: 'debug', path: '/openapi.json' })]);
  });

  it('When the log level is warn or silent, then ordinary request lines are not printed', async () => {
    for (const logLevel of ['warn', 'silent'] as const) {
      const { app, lines } = await appWithLog({ logLevel });
      await request(app).get('/_sandbox/health').expect(200);
      expect(lines).toEqual([]);
    }
  });

  it('When an answer is given outside Express, then the runtime observer records it in journal, coverage and log', async () => {
    const { runtime, lines } = await appWithLog();
    runtime.observe({
      at: new Date(),
      method: 'GET',
      url: '/2024-09/merchants?page=1',
      path: '/2024-09/merchants',
      query: { page: '1' },
      headers: { authorization: 'Bearer demo-owner-token' },
      responseBody: { data: [] },
      status: 200,
      durationMs: 0.4,
      operationId: 'listMerchants',
    });
    expect(runtime.observations.journal.list()[0]).toMatchObject({
      operation_id: 'listMerchants',
      workspace: 'default',
      request: { headers: { authorization: 'Bearer [REDACTED]' } },
    });
    expect(
      runtime.observations
        .coverageOf('default')!
        .report()
        .operations.find((o) => o.operation_id === 'listMerchants')!.answered,
    ).toEqual(['200']);
    expect(lines).toHaveLength(1);
  });
});

describe('the server around the app', () => {
  it('When a request arrives, then Node has already made it and its response with the prototypes Express gives them, so Express changes no prototype', async () => {
    const t = await testApp();
    const seen: { request?: object | null; response?: object | null; isRequest?: boolean; isResponse?: boolean } = {};
    // Listeners run in order: this one, put first, sees the objects before the app (Express) touches them.
    t.app.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      Object.assign(seen, {
        request: Object.getPrototypeOf(req),
        response: Object.getPrototypeOf(res),
        isRequest: req instanceof IncomingMessage,
        isResponse: res instanceof ServerResponse,
      });
    });
    await request(t.app).get('/2024-09/users/current').set(t.auth('owner')).expect(200);
    const express = t.app.listeners('request').at(-1) as unknown as { request: object; response: object };
    expect(seen).toEqual({ request: express.request, response: express.response, isRequest: true, isResponse: true });
  });
});
