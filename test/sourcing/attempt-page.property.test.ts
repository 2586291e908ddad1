// keptAttempts pages a supplier's attempts without building those outside the page; this checks it against the
// plain definition of the list (every attempt built, filtered by whole UTC days and started-or-not, ordered by
// scheduled_to_run_at then id, then sliced) for any requests, filter, time and page.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keptAttempts } from '../../src/areas/sourcing/rules/attempt-page.js';
import { attemptCount, attemptTiming, type AttemptFilter, type SchedulableRequest } from '../../src/areas/sourcing/rules/scraping-schedule.js';

const DAY_MS = 86_400_000;
const BASE = Date.parse('2024-08-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const day = (ms: number) => iso(ms).slice(0, 10);

/** The list as the contract describes it, built whole. */
function definition(requests: readonly SchedulableRequest[], filter: AttemptFilter, t: number) {
  const from = filter.from_date ? Date.parse(`${filter.from_date}T00:00:00.000Z`) : -Infinity;
  const toExclusive = filter.to_date ? Date.parse(`${filter.to_date}T00:00:00.000Z`) + DAY_MS : Infinity;
  return requests
    .flatMap((request) => Array.from({ length: attemptCount(request) }, (_, k) => ({ request, timing: attemptTiming(request, k + 1) })))
    .filter(({ timing }) => {
      if (timing.scheduled < from || timing.scheduled >= toExclusive) return false;
      const started = t >= timing.started;
      if (filter.not_started === true && started) return false;
      if (filter.not_started === false && !started) return false;
      return true;
    })
    .sort((a, b) => a.timing.scheduled - b.timing.scheduled || (a.timing.id < b.timing.id ? -1 : a.timing.id > b.timing.id ? 1 : 0));
}

const requestArb = (i: number) =>
  fc
    .record({
      frequency: fc.constantFrom('once', 'hourly', 'daily', 'weekly'),
      // Few distinct start times, so attempts of different requests are often scheduled at the same instant.
      startHours: fc.integer({ min: 0, max: 72 }).map((h) => h - (h % 6)),
      max: fc.integer({ min: 1, max: 100 }),
    })
    .map(
      ({ frequency, startHours, max }): SchedulableRequest => ({
        id: `e5e5e5e5-e5e5-4e5e-8e5e-${String(i).padStart(12, '0')}`,
        supplier_id: 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001',
        frequency,
        starts_at: iso(BASE + startHours * 3_600_000),
        max_attempts: frequency === 'once' ? 1 : max,
        created_at: iso(BASE),
      }),
    );

const requestsArb = fc.integer({ min: 0, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => requestArb(i))));

const filterArb = fc.record(
  {
    from_date: fc.integer({ min: -2, max: 120 }).map((d) => day(BASE + d * DAY_MS)),
    to_date: fc.integer({ min: -2, max: 120 }).map((d) => day(BASE + d * DAY_MS)),
    not_started: fc.boolean(),
  },
  { requiredKeys: [] },
);

describe('keptAttempts', () => {
  it('When any requests, filter, time and page are read, then the page and total are those of the list built whole', () => {
    fc.assert(
      fc.property(
        requestsArb,
        filterArb,
        fc.integer({ min: -2 * 24, max: 130 * 24 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 100 }),
        (requests, filter, hours, offset, count) => {
          const t = BASE + hours * 3_600_000;
          const whole = definition(requests, filter, t);
          const kept = keptAttempts(requests, filter, new Date(t));
          expect(kept.total).toBe(whole.length);
          const ids = (list: { timing: { id: string } }[]) => list.map((a) => a.timing.id);
          expect(ids(kept.slice(offset, count))).toEqual(ids(whole.slice(offset, offset + count)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('When a supplier holds far more attempts than any page, then a page builds only its own attempts', () => {
    const requests = Array.from(
      { length: 2_000 },
      (_, i): SchedulableRequest => ({
        id: `e5e5e5e5-e5e5-4e5e-8e5e-${String(i).padStart(12, '0')}`,
        supplier_id: 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001',
        frequency: 'hourly',
        starts_at: iso(BASE),
        max_attempts: 100,
        created_at: iso(BASE),
      }),
    );
    const kept = keptAttempts(requests, {}, new Date(BASE + 200 * 3_600_000));
    expect(kept.total).toBe(200_000);
    const page = kept.slice(150_000, 3);
    expect(page.map((a) => a.timing.number)).toEqual([76, 76, 76]);
  });
});
