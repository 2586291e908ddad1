import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { latency, waitForKnobs } from '../../src/knobs/scenario-knobs.js';

const recorder = (slept: number[]) => async (ms: number) => void slept.push(ms);

describe('scenario knobs', () => {
  it('When Prefer asks for code and delay, then the knobs are parsed and the delay is served', async () => {
    const slept: number[] = [];
    const parsed = await waitForKnobs('code=404, delay=250', { sleep: recorder(slept) });
    expect(parsed).toEqual({ ok: true, knobs: { code: 404, delay: 250, applied: 'code=404, delay=250' } });
    expect(slept).toEqual([250]);
  });

  it('When a start-up latency is set, then it is added to Prefer: delay', async () => {
    const slept: number[] = [];
    await waitForKnobs(undefined, { latencyMs: 100, sleep: recorder(slept) });
    await waitForKnobs('delay=50', { latencyMs: 100, sleep: recorder(slept) });
    expect(slept).toEqual([100, 150]);
  });

  it('When a knob is bad, then the parse names it and nothing is waited', async () => {
    const slept: number[] = [];
    const parsed = await waitForKnobs('delay=5000', { maxDelayMs: 1000, sleep: recorder(slept) });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.error.errors).toEqual({ 'Prefer.delay': ["The Prefer delay must be an integer number of milliseconds from 0 to 1000, got '5000'."] });
    expect(slept).toEqual([]);
  });

  it('When a latency is configured, then the middleware waits it before the answer', async () => {
    const slept: number[] = [];
    const app = express()
      .use(latency(100, recorder(slept)))
      .get('/x', (_req, res) => void res.json({}));
    await request(app).get('/x').expect(200);
    expect(slept).toEqual([100]);
  });

  it('When the real timer is used, then the answer really is late', async () => {
    const started = Date.now();
    await waitForKnobs('delay=60');
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });
});
