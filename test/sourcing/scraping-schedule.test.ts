import { describe, expect, it } from 'vitest';
import { SupplierCatalogues } from '../../src/areas/sourcing/rules/supplier-catalogue.js';
import {
  attemptFilterErrors,
  presentAttempt,
  requestState,
  resolveSchedule,
  scheduleAttempts,
  type SchedulableRequest,
} from '../../src/areas/sourcing/rules/scraping-schedule.js';
import { keptAttempts } from '../../src/areas/sourcing/rules/attempt-page.js';
import { MAX_CLOCK_OFFSET_MS } from '../../src/world.js';

const request: SchedulableRequest = {
  id: 'e5e5e5e5-e5e5-4e5e-8e5e-e5e5e5e5e001',
  supplier_id: 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001',
  frequency: 'daily',
  starts_at: '2024-08-20T06:00:00.000Z',
  max_attempts: 30,
  created_at: '2024-08-19T15:30:00.000Z',
};
const at = (s: string) => new Date(s);
/** Found counts are computed here the way a sandbox's runtime computes (and keeps) them. */
const catalogues = new SupplierCatalogues();

describe('scheduleAttempts', () => {
  it('When a daily request is read, then it has max_attempts attempts one day apart from starts_at', () => {
    const attempts = scheduleAttempts(request, at('2024-08-01T00:00:00Z'), catalogues);
    expect(attempts).toHaveLength(30);
    expect(attempts[0]!.scheduled_to_run_at).toBe('2024-08-20T06:00:00.000Z');
    expect(attempts[1]!.scheduled_to_run_at).toBe('2024-08-21T06:00:00.000Z');
    expect(attempts.map((a) => a.attempt_number)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('When the same request is derived twice, then the attempts are identical (ids and times come from the request id)', () => {
    const now = at('2024-09-01T00:00:00Z');
    expect(scheduleAttempts(request, now, catalogues)).toEqual(scheduleAttempts({ ...request }, now, catalogues));
    expect(new Set(scheduleAttempts(request, now, catalogues).map((a) => a.id)).size).toBe(30);
  });

  it('When time passes, then an attempt moves from scheduled to running to finished or failed, and only then counts finds', () => {
    const before = scheduleAttempts(request, at('2024-08-20T05:59:59Z'), catalogues)[0]!;
    expect(before).toMatchObject({ status: 'scheduled', attempt_started_at: null, finished_at: null, found_items_count: 0 });
    const started = Date.parse(scheduleAttempts(request, at('2024-08-21T00:00:00Z'), catalogues)[0]!.attempt_started_at!);
    const running = scheduleAttempts(request, new Date(started), catalogues)[0]!;
    expect(running.status).toBe('running');
    expect(running.finished_at).toBeNull();
    expect(running.found_items_count).toBe(0);
    const ended = scheduleAttempts(request, at('2024-08-21T00:00:00Z'), catalogues)[0]!;
    expect(['finished', 'failed']).toContain(ended.status);
    expect(Date.parse(ended.finished_at!)).toBeGreaterThan(started);
    if (ended.status === 'finished') expect(ended.found_items_count).toBeGreaterThan(0);
    else expect(ended.failure_reason).toEqual(expect.any(String));
  });

  it('When many attempts have ended, then some fail, most find items, and each ends before the next slot', () => {
    const attempts = scheduleAttempts({ ...request, max_attempts: 100, frequency: 'hourly' }, at('2030-01-01T00:00:00Z'), catalogues);
    const statuses = new Set(attempts.map((a) => a.status));
    expect(statuses).toEqual(new Set(['finished', 'failed']));
    for (let i = 1; i < attempts.length; i++) {
      expect(attempts[i - 1]!.finished_at! < attempts[i]!.scheduled_to_run_at).toBe(true);
    }
  });

  it('When the frequency is once, then there is exactly one attempt', () => {
    expect(scheduleAttempts({ ...request, frequency: 'once', max_attempts: 1 }, at('2024-09-01T00:00:00Z'), catalogues)).toHaveLength(1);
  });
});

describe('requestState', () => {
  it('When nothing has started, then the request is scheduled with its first slot next', () => {
    expect(requestState(request, at('2024-08-19T16:00:00Z'))).toEqual({
      status: 'scheduled',
      attempts_finished_count: 0,
      next_attempt_at: '2024-08-20T06:00:00.000Z',
    });
  });
  it('When some attempts ended, then it is running and counts them', () => {
    expect(requestState(request, at('2024-09-01T00:00:00Z'))).toEqual({
      status: 'running',
      attempts_finished_count: 12,
      next_attempt_at: '2024-09-01T06:00:00.000Z',
    });
  });
  it('When every attempt ended, then it is completed with no next attempt', () => {
    expect(requestState(request, at('2025-01-01T00:00:00Z'))).toEqual({
      status: 'completed',
      attempts_finished_count: 30,
      next_attempt_at: null,
    });
  });
});

describe('resolveSchedule', () => {
  const now = at('2024-09-02T10:00:00Z');
  const latest = now.getTime() + MAX_CLOCK_OFFSET_MS;
  it('When only source_url is sent, then it runs once, now', () => {
    expect(resolveSchedule({ source_url: 'https://x.example' }, now, latest)).toEqual({
      ok: true,
      schedule: { frequency: 'once', starts_at: '2024-09-02T10:00:00.000Z', max_attempts: 1 },
    });
  });
  it('When a recurring frequency has no max_attempts, then it defaults to 30', () => {
    const r = resolveSchedule({ source_url: 'https://x.example', frequency: 'weekly', starts_at: '2024-09-03T06:00:00Z' }, now, latest);
    expect(r).toEqual({ ok: true, schedule: { frequency: 'weekly', starts_at: '2024-09-03T06:00:00.000Z', max_attempts: 30 } });
  });
  it('When starts_at is in the past, then it means now', () => {
    const r = resolveSchedule({ source_url: 'https://x.example', starts_at: '2020-01-01T00:00:00Z' }, now, latest);
    expect(r.ok && r.schedule.starts_at).toBe('2024-09-02T10:00:00.000Z');
  });
  it('When once is asked with more than one attempt, then it answers errors.max_attempts', () => {
    expect(resolveSchedule({ source_url: 'https://x.example', frequency: 'once', max_attempts: 3 }, now, latest)).toEqual({
      ok: false,
      errors: { max_attempts: ['The max attempts field must be 1 when the frequency is once.'] },
    });
  });
  it('When starts_at is later than the clock can ever reach, then it answers errors.starts_at', () => {
    const r = resolveSchedule({ source_url: 'https://x.example', starts_at: new Date(latest + 1).toISOString() }, now, latest);
    expect(r).toEqual({ ok: false, errors: { starts_at: [expect.stringContaining(new Date(latest).toISOString())] } });
    expect(resolveSchedule({ source_url: 'https://x.example', starts_at: new Date(latest).toISOString() }, now, latest).ok).toBe(true);
  });
});

describe('keptAttempts', () => {
  const now = at('2024-09-01T00:00:00Z');
  const views = (requests: SchedulableRequest[], filter: Parameters<typeof keptAttempts>[1]) => {
    const kept = keptAttempts(requests, filter, now);
    return kept.slice(0, kept.total).map(({ request: r, timing }) => presentAttempt(r, timing, now, catalogues));
  };
  it('When from_date and to_date are days, then both ends are inclusive whole UTC days', () => {
    const r = views([request], { from_date: '2024-08-31', to_date: '2024-09-01' });
    expect(r.map((a) => a.scheduled_to_run_at)).toEqual(['2024-08-31T06:00:00.000Z', '2024-09-01T06:00:00.000Z']);
  });
  it('When not_started is true or false, then it splits the attempts by attempt_started_at', () => {
    const notStarted = views([request], { not_started: true });
    const started = views([request], { not_started: false });
    expect(notStarted.every((a) => a.attempt_started_at === null)).toBe(true);
    expect(started.every((a) => a.attempt_started_at !== null)).toBe(true);
    expect(notStarted.length + started.length).toBe(30);
    expect(started).toHaveLength(12);
  });
  it('When attempts of several requests are mixed, then they come back by scheduled_to_run_at', () => {
    const other = { ...request, id: 'e5e5e5e5-e5e5-4e5e-8e5e-e5e5e5e5e002', starts_at: '2024-08-20T18:00:00.000Z' };
    const r = views([other, request], {});
    expect(r).toHaveLength(60);
    expect(r.map((a) => a.scheduled_to_run_at)).toEqual([...r.map((a) => a.scheduled_to_run_at)].sort());
  });
  it('When to_date is before from_date, then it answers errors.to_date', () => {
    expect(attemptFilterErrors({ from_date: '2024-09-02', to_date: '2024-09-01' })).toHaveProperty('to_date');
    expect(attemptFilterErrors({ from_date: '2024-09-01', to_date: '2024-09-01' })).toEqual({});
  });
});
