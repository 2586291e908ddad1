import express, { type ErrorRequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { HttpError } from '../../src/http/errors.js';
import { preferOf, scenarioKnobs, type ScenarioKnobOptions } from '../../src/knobs/scenario-knobs.js';

function appWith(options: ScenarioKnobOptions, slept: number[]) {
  const app = express();
  app.use(scenarioKnobs({ ...options, sleep: async (ms) => void slept.push(ms) }));
  app.get(['/2024-09/merchants', '/docs/'], (_req, res) => {
    const prefer = preferOf(res);
    res.json({ prefer: prefer?.ok ? prefer.knobs : { applied: '' } });
  });
  // Stands in for the core error handler.
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const e = err as HttpError;
    res.status(e.status ?? 500).json({ message: e.message, errors: e.errors });
  };
  app.use(onError);
  return app;
}

describe('scenario knobs middleware', () => {
  it('When Prefer asks for code and delay, then the knobs reach the handler and the delay is served', async () => {
    const slept: number[] = [];
    const res = await request(appWith({}, slept)).get('/2024-09/merchants').set('Prefer', 'code=404, delay=250').expect(200);
    expect(res.body.prefer).toEqual({ code: 404, delay: 250, applied: 'code=404, delay=250' });
    expect(slept).toEqual([250]);
  });

  it('When a start-up latency is set, then it is added to every answer and to Prefer: delay', async () => {
    const slept: number[] = [];
    const app = appWith({ latencyMs: 100 }, slept);
    await request(app).get('/2024-09/merchants').expect(200);
    await request(app).get('/2024-09/merchants').set('Prefer', 'delay=50').expect(200);
    expect(slept).toEqual([100, 150]);
  });

  it('When a knob is bad, then the answer is 422 naming it', async () => {
    const slept: number[] = [];
    const res = await request(appWith({ maxDelayMs: 1000 }, slept))
      .get('/2024-09/merchants')
      .set('Prefer', 'delay=5000')
      .expect(422);
    expect(res.body.errors).toEqual({ 'Prefer.delay': ["The Prefer delay must be an integer number of milliseconds from 0 to 1000, got '5000'."] });
    expect(slept).toEqual([]);
  });

  it('When a request is one the knobs do not apply to, then neither latency nor knobs apply', async () => {
    const slept: number[] = [];
    const appliesTo = (req: { path: string }) => req.path !== '/docs/';
    const res = await request(appWith({ latencyMs: 100, appliesTo }, slept))
      .get('/docs/')
      .set('Prefer', 'code=abc')
      .expect(200);
    expect(res.body.prefer).toEqual({ applied: '' });
    expect(slept).toEqual([]);
  });

  it('When the real timer is used, then the answer really is late', async () => {
    const app = express()
      .use(scenarioKnobs())
      .get('/x', (_req, res) => void res.json({}));
    const started = Date.now();
    await request(app).get('/x').set('Prefer', 'delay=60').expect(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
