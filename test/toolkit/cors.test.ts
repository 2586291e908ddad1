import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cors, type CorsOptions } from '../../src/http/cors.js';
import { parseCorsOrigins } from '../../src/config.js';

function appWith(options?: CorsOptions) {
  const app = express();
  app.use(cors(options));
  app.get('/2024-09/merchants', (_req, res) => {
    res.set('Retry-After', '3').json({ data: [] });
  });
  // Stands in for auth: a preflight must never reach it.
  app.use((_req, res) => {
    res.status(401).json({ message: 'Unauthenticated.' });
  });
  return app;
}

describe('cors', () => {
  it('When no origins are configured, then any origin is allowed with * and no credentials', async () => {
    const res = await request(appWith()).get('/2024-09/merchants').set('Origin', 'https://docs.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    expect(res.headers['access-control-expose-headers']).toContain('Retry-After');
    expect(res.headers.vary ?? '').not.toMatch(/Origin/);
  });

  it('When a preflight asks for Authorization and Content-Type, then it is answered 204 before auth', async () => {
    const res = await request(appWith())
      .options('/2024-09/products/123')
      .set('Origin', 'https://docs.example.com')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization, content-type, prefer')
      .expect(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE');
    for (const h of ['Authorization', 'Content-Type', 'Prefer']) expect(res.headers['access-control-allow-headers']).toContain(h);
    expect(res.headers['access-control-max-age']).toBe('600');
    expect(res.text).toBe('');
  });

  it('When OPTIONS comes without Access-Control-Request-Method, then it is not a preflight and passes on', async () => {
    await request(appWith()).options('/2024-09/merchants').set('Origin', 'https://a.example').expect(401);
  });

  it('When a list is configured and the origin is on it, then the origin is echoed with Vary: Origin', async () => {
    const app = appWith({ origins: ['https://docs.example.com'] });
    const res = await request(app).get('/2024-09/merchants').set('Origin', 'https://docs.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://docs.example.com');
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('When a list is configured and the origin is not on it, then no Allow-Origin is sent (the browser blocks it)', async () => {
    const app = appWith({ origins: ['https://docs.example.com'] });
    const res = await request(app).get('/2024-09/merchants').set('Origin', 'https://evil.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Origin/);
    const pre = await request(app).options('/2024-09/merchants').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'GET').expect(204);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    expect(pre.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('When origins differ only in case, then they still match', async () => {
    const res = await request(appWith({ origins: ['https://Docs.Example.com'] }))
      .get('/2024-09/merchants')
      .set('Origin', 'https://docs.example.com');
    expect(res.headers['access-control-allow-origin']).toBe('https://docs.example.com');
  });

  it('When a Vary header is already set, then Origin is appended once', async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader('Vary', 'Accept-Encoding');
      next();
    });
    app.use(cors({ origins: ['https://a.example'] }));
    app.get('/', (_req, res) => {
      res.end();
    });
    const res = await request(app).get('/').set('Origin', 'https://a.example');
    expect(res.headers.vary).toBe('Accept-Encoding, Origin');
  });

  it('When the setting is parsed, then * or empty means any origin and a list is trimmed', () => {
    expect(parseCorsOrigins(undefined)).toBe('*');
    expect(parseCorsOrigins(' * ')).toBe('*');
    expect(parseCorsOrigins('https://a.example/, https://b.example ,')).toEqual(['https://a.example', 'https://b.example']);
  });
});
