// Header sets (src/http/header-sets.ts): a middleware's headers worked out once by running it on a probe, then set on
// each answer. Where the probe shows the middleware does more than set headers, or a response already has a header
// it reads, the middleware itself runs, so its answers are never other than its own.
import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { cors } from '../../src/http/cors.js';
import { fixedHeaders } from '../../src/http/header-sets.js';

/** A middleware and how many times it ran (the probe included). */
function counted(body: RequestHandler) {
  const runs = { count: 0 };
  const middleware: RequestHandler = (req, res, next) => {
    runs.count++;
    return body(req, res, next);
  };
  return { middleware, runs };
}

/** An app with `before` (headers already on the response), then `middleware`, then a 200. */
function appWith(middleware: RequestHandler, before: RequestHandler = (_req, _res, next) => next()) {
  const app = express();
  app.use(before, middleware);
  app.get('/thing', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
}

describe('header sets', () => {
  it('When a middleware sets a header and removes another, then every answer gets the same, with the middleware run once (its probe)', async () => {
    const { middleware, runs } = counted((_req, res, next) => {
      res.setHeader('X-Kept', 'yes');
      res.setHeader('X-Gone', 'soon');
      res.removeHeader('X-Gone');
      next();
    });
    const app = appWith(fixedHeaders(middleware), (_req, res, next) => {
      res.setHeader('X-Gone', 'set before');
      next();
    });
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/thing').expect(200);
      expect(res.headers['x-kept']).toBe('yes');
      expect(res.headers['x-gone']).toBeUndefined();
    }
    expect(runs.count).toBe(1);
  });

  it('When a middleware answers instead of passing on, then it runs as it is on every request', async () => {
    const { middleware, runs } = counted((_req, res) => {
      res.status(418).json({ message: 'mine' });
    });
    const app = appWith(fixedHeaders(middleware));
    for (let i = 0; i < 2; i++) expect((await request(app).get('/thing').expect(418)).body).toEqual({ message: 'mine' });
    expect(runs.count).toBe(3);
  });

  it('When a middleware reaches for something the probe does not have, then it runs as it is on every request', async () => {
    const { middleware, runs } = counted((req, res, next) => {
      res.setHeader('X-Host', String(req.get('host')));
      next();
    });
    const app = appWith(fixedHeaders(middleware));
    const res = await request(app).get('/thing').set('Host', 'sandbox.test').expect(200);
    expect(res.headers['x-host']).toBe('sandbox.test');
    expect(runs.count).toBe(2);
  });

  it('When a response already has a header the middleware reads, then the middleware itself runs and adds to it', async () => {
    const { middleware, runs } = counted((_req, res, next) => {
      const vary = res.getHeader('Vary');
      res.setHeader('Vary', vary === undefined ? 'Origin' : `${String(vary)}, Origin`);
      next();
    });
    const fixed = fixedHeaders(middleware);
    const plain = await request(appWith(fixed)).get('/thing').expect(200);
    expect(plain.headers.vary).toBe('Origin');
    expect(runs.count).toBe(1);
    const withVary = appWith(fixed, (_req, res, next) => {
      res.setHeader('Vary', 'Accept-Encoding');
      next();
    });
    expect((await request(withVary).get('/thing').expect(200)).headers.vary).toBe('Accept-Encoding, Origin');
    expect(runs.count).toBe(2);
  });

  it('When more distinct Origins call than header sets are kept, then each listed one is still granted and each other one refused', async () => {
    const listed = Array.from({ length: 300 }, (_, i) => `https://docs${i}.example.com`);
    const app = appWith(cors({ origins: listed }));
    for (const origin of listed) {
      const res = await request(app).get('/thing').set('Origin', origin).expect(200);
      expect(res.headers['access-control-allow-origin']).toBe(origin);
    }
    const stranger = await request(app).get('/thing').set('Origin', 'https://elsewhere.example.com').expect(200);
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    // The first Origins' sets were let go on the way: worked out again, the same.
    expect((await request(app).get('/thing').set('Origin', listed[0]!).expect(200)).headers['access-control-allow-origin']).toBe(listed[0]);
  });
});
