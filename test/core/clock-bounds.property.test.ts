// The clock control takes any body a client can send: huge, negative, fractional, non-finite and mistyped amounts
// answer a documented 4xx, and the clock's total offset is bounded, so no later answer carries a date past year 9999.
import fc from 'fast-check';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { MAX_CLOCK_OFFSET_DAYS, MAX_CLOCK_OFFSET_MS } from '../../src/world.js';
import { testApp, type TestApp } from '../helpers/app.js';

const DAY = 86_400_000;
const UNITS = ['seconds', 'minutes', 'hours', 'days'] as const;

/** A JSON number token as a client may type it: integers of any size, fractions, exponents past a double's range. */
const numberToken = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.constantFrom('1e309', '-1e309', '1e-400', '0.5', '366.0000001', '9007199254740993', '36600', '1E3', '-0'),
);
/** Any JSON value a field might hold instead of a number. */
const otherValue = fc.oneof(
  fc.constant('null'),
  fc.constant('true'),
  fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)),
  fc.constant('[1]'),
  fc.constant('{}'),
);
const body = fc
  .dictionary(
    fc.oneof(fc.constantFrom(...UNITS), fc.string({ maxLength: 6 })),
    fc.oneof({ weight: 4, arbitrary: numberToken }, { weight: 1, arbitrary: otherValue }),
    { maxKeys: 4 },
  )
  .map(
    (fields) =>
      `{${Object.entries(fields)
        .map(([k, v]) => `${JSON.stringify(k)}:${v}`)
        .join(',')}}`,
  );

async function clockOf(t: TestApp) {
  const res = await request(t.app).get('/_sandbox/clock');
  expect(res.status).toBe(200);
  return res.body.data as { now: string; offset_ms: number };
}

describe('the clock control under any amount', () => {
  it('When any body is sent to advance the clock, then the answer is 200 or a documented 4xx with a message, and the clock stays within its bound', async () => {
    const t = await testApp();
    await fc.assert(
      fc.asyncProperty(fc.array(body, { minLength: 1, maxLength: 6 }), async (bodies) => {
        for (const raw of bodies) {
          const res = await request(t.app).post('/_sandbox/clock/advance').set('Content-Type', 'application/json').send(raw);
          expect([200, 400, 422], `${raw} -> ${res.status} ${JSON.stringify(res.body)}`).toContain(res.status);
          if (res.status === 200) expect(res.body.data.offset_ms).toBeLessThanOrEqual(MAX_CLOCK_OFFSET_MS);
          else expect(res.body.message).toEqual(expect.any(String));
        }
        const clock = await clockOf(t);
        expect(clock.offset_ms).toBeLessThanOrEqual(MAX_CLOCK_OFFSET_MS);
        expect(clock.now).toMatch(/^\d{4}-\d\d-\d\dT/);
      }),
      { numRuns: 60, seed: 20240901 },
    );
    expect(t.errors).toEqual([]);
  });

  it('When the clock is advanced by 366 days again and again, then past its bound it answers 422 naming the bound, and the clock still reads', async () => {
    const t = await testApp();
    const calls = Math.ceil(MAX_CLOCK_OFFSET_DAYS / 366) + 5;
    const statuses: number[] = [];
    let refusal: { message?: string; errors?: Record<string, string[]> } = {};
    for (let i = 0; i < calls; i++) {
      const res = await request(t.app).post('/_sandbox/clock/advance').send({ days: 366 });
      statuses.push(res.status);
      if (res.status === 422) refusal = res.body;
    }
    // Every call that fits is taken, every one after is refused: nothing in between, no 5xx.
    expect(statuses.filter((s) => s === 200)).toHaveLength(Math.floor(MAX_CLOCK_OFFSET_DAYS / 366));
    expect(new Set(statuses)).toEqual(new Set([200, 422]));
    expect(refusal.errors?.body?.[0]).toContain(`${MAX_CLOCK_OFFSET_DAYS} days`);
    const clock = await clockOf(t);
    expect(clock.offset_ms).toBe(Math.floor(MAX_CLOCK_OFFSET_DAYS / 366) * 366 * DAY);
    // A smaller move that still fits is taken; the world keeps working at that date.
    const fits = MAX_CLOCK_OFFSET_MS - clock.offset_ms;
    expect(
      (
        await request(t.app)
          .post('/_sandbox/clock/advance')
          .send({ seconds: fits / 1000 })
      ).status,
    ).toBe(200);
    expect((await request(t.app).post('/_sandbox/clock/advance').send({ seconds: 1 })).status).toBe(422);
    expect((await request(t.app).get('/2024-09/merchants').set(t.auth('owner'))).status).toBe(200);
    expect((await request(t.app).post('/_sandbox/reset')).status).toBe(204);
    expect((await clockOf(t)).offset_ms).toBe(0);
    expect(t.errors).toEqual([]);
  });
});
