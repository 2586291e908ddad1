// Scraping attempts are never stored: they follow from a request's schedule, its id (hash) and the clock, so the
// seeded store stays deterministic and moving the sandbox clock moves attempts from scheduled to started to ended.
import type { components } from '../../../contract/generated.js';
import type { ScrapingFrequency, ScrapingRequestRecord, ScrapingRequestState } from '../record-types.js';
import { hashInt, hashUuid } from './deterministic.js';
import { foundItemsCount } from './supplier-catalogue.js';

/** The period between two attempts of a recurring request. */
export const FREQUENCY_MS: Record<Exclude<ScrapingFrequency, 'once'>, number> = {
  hourly: 3_600_000,
  daily: 86_400_000,
  weekly: 7 * 86_400_000,
};

/** Default attempts for a recurring request when the client names none (a month of daily runs). */
export const DEFAULT_RECURRING_ATTEMPTS = 30;

// An attempt starts 5 s to 2 min after its slot and runs 2 to 14 min: always over before the next hourly slot, so
// attempts of one request end in order (catch-up relies on it).
const START_DELAY_S = [5, 120] as const;
const DURATION_S = [120, 840] as const;
const FAILURE_PERCENT = 8;
const FAILURE_REASONS = [
  'The source page answered HTTP 503 Service Unavailable.',
  'The source page did not answer within 60 seconds.',
  'The source page asked for a login; the price list is not public.',
  'The source page layout changed; no price table was recognised.',
];

/** An attempt exactly as the contract's ScrapingAttempt presents it. */
export type ScrapingAttemptView = components['schemas']['ScrapingAttempt'];

/** Lifecycle of an attempt, derived from the clock. */
export type AttemptStatus = ScrapingAttemptView['status'];

/** The body of createScrapingRequest as the contract lets it through. */
export type ScrapingRequestInput = components['schemas']['ScrapingRequestCreate'];

/** Schedule fields to store, or 422 field errors. */
export type ResolvedSchedule =
  | { ok: true; schedule: { frequency: ScrapingFrequency; starts_at: string; max_attempts: number } }
  | { ok: false; errors: Record<string, string[]> };

/**
 * Applies the defaults and the rules the contract cannot express: frequency defaults to `once`; `once` allows
 * exactly one attempt; max_attempts defaults to 1 (once) or 30; a starts_at in the past (or absent) means now,
 * so a request never backfills history.
 */
export function resolveSchedule(input: ScrapingRequestInput, now: Date): ResolvedSchedule {
  const frequency = input.frequency ?? 'once';
  if (frequency === 'once' && input.max_attempts !== undefined && input.max_attempts !== 1) {
    return { ok: false, errors: { max_attempts: ['The max attempts field must be 1 when the frequency is once.'] } };
  }
  const max_attempts = input.max_attempts ?? (frequency === 'once' ? 1 : DEFAULT_RECURRING_ATTEMPTS);
  const requested = input.starts_at === undefined ? now.getTime() : Date.parse(input.starts_at);
  const starts_at = new Date(Math.max(requested, now.getTime())).toISOString();
  return { ok: true, schedule: { frequency, starts_at, max_attempts } };
}

/** The fields of a request the schedule depends on (the stored record satisfies it). */
export type SchedulableRequest = Pick<
  ScrapingRequestRecord,
  'id' | 'supplier_id' | 'frequency' | 'starts_at' | 'max_attempts' | 'created_at'
>;

/** The stable id of attempt `attemptNumber` (1-based) of a request. */
export function attemptId(requestId: string, attemptNumber: number): string {
  // Salted so an attempt id can never equal another hashed id (scraped items, tiers).
  return hashUuid('scraping-attempt', requestId, attemptNumber);
}

/** Every attempt of the request (all max_attempts of them, past and future), with its state at `now`. */
export function scheduleAttempts(request: SchedulableRequest, now: Date): ScrapingAttemptView[] {
  const start = Date.parse(request.starts_at);
  const period = request.frequency === 'once' ? 0 : FREQUENCY_MS[request.frequency];
  const count = request.frequency === 'once' ? 1 : request.max_attempts;
  const t = now.getTime();
  return Array.from({ length: count }, (_, k) => {
    const number = k + 1;
    const id = attemptId(request.id, number);
    const scheduled = start + k * period;
    const started = scheduled + 1000 * hashInt(START_DELAY_S[0], START_DELAY_S[1], 'start-delay', id);
    const ended = started + 1000 * hashInt(DURATION_S[0], DURATION_S[1], 'duration', id);
    const fails = hashInt(0, 99, 'failure', id) < FAILURE_PERCENT;
    const hasStarted = t >= started;
    const hasEnded = t >= ended;
    let status: AttemptStatus = 'scheduled';
    if (hasEnded) status = fails ? 'failed' : 'finished';
    else if (hasStarted) status = 'running';
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      id,
      supplier_id: request.supplier_id,
      supplier_scraping_request_id: request.id,
      attempt_number: number,
      status,
      scheduled_to_run_at: iso(scheduled),
      attempt_started_at: hasStarted ? iso(started) : null,
      finished_at: hasEnded ? iso(ended) : null,
      found_items_count: status === 'finished' ? foundItemsCount(request.supplier_id, id) : 0,
      failure_reason: status === 'failed' ? FAILURE_REASONS[hashInt(0, FAILURE_REASONS.length - 1, 'reason', id)]! : null,
      created_at: request.created_at,
      updated_at: hasEnded ? iso(ended) : hasStarted ? iso(started) : request.created_at,
    };
  });
}

/** The request's derived status and counters at `now`. */
export function requestState(request: SchedulableRequest, now: Date): ScrapingRequestState {
  const attempts = scheduleAttempts(request, now);
  const ended = attempts.filter((a) => a.finished_at !== null).length;
  const next = attempts.find((a) => a.attempt_started_at === null);
  const anyStarted = attempts.some((a) => a.attempt_started_at !== null);
  return {
    status: ended === attempts.length ? 'completed' : anyStarted ? 'running' : 'scheduled',
    attempts_finished_count: ended,
    next_attempt_at: next ? next.scheduled_to_run_at : null,
  };
}

/** The query of listScrapingAttempts as the contract lets it through. */
export interface AttemptFilter {
  from_date?: string;
  to_date?: string;
  not_started?: boolean;
}

/** 422 errors for a filter the contract accepts but that makes no sense (to_date before from_date). */
export function attemptFilterErrors(filter: AttemptFilter): Record<string, string[]> {
  if (filter.from_date && filter.to_date && filter.to_date < filter.from_date) {
    return { to_date: ['The to date field must be a date after or equal to from date.'] };
  }
  return {};
}

/**
 * Filters attempts (from any number of requests) by whole UTC days of scheduled_to_run_at, both ends inclusive,
 * and by started-or-not; answers them in list order: scheduled_to_run_at, then id.
 */
export function filterAttempts(attempts: readonly ScrapingAttemptView[], filter: AttemptFilter): ScrapingAttemptView[] {
  const from = filter.from_date ? Date.parse(`${filter.from_date}T00:00:00.000Z`) : -Infinity;
  const toExclusive = filter.to_date ? Date.parse(`${filter.to_date}T00:00:00.000Z`) + 86_400_000 : Infinity;
  return attempts
    .filter((a) => {
      const at = Date.parse(a.scheduled_to_run_at);
      if (at < from || at >= toExclusive) return false;
      if (filter.not_started === true && a.attempt_started_at !== null) return false;
      if (filter.not_started === false && a.attempt_started_at === null) return false;
      return true;
    })
    .sort((a, b) => a.scheduled_to_run_at.localeCompare(b.scheduled_to_run_at) || a.id.localeCompare(b.id));
}

