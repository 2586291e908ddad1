// Scraping attempts are never stored: they follow from a request's schedule, its id (hash) and the clock, so the
// seeded store stays deterministic and moving the sandbox clock moves attempts from scheduled to started to ended.
import type { components } from '../../../contract/document/generated.js';
import type { ScrapingFrequency, ScrapingRequestRecord, ScrapingRequestState } from '../record-types.js';
import { hashInt, hashUuid } from './deterministic.js';
import type { SupplierCatalogues } from './supplier-catalogue.js';

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
 * so a request never backfills history; a starts_at past `latest`, the latest time the world's clock can reach,
 * would never run (and its later attempts would fall past the four-digit years a date-time shows): 422.
 */
export function resolveSchedule(input: ScrapingRequestInput, now: Date, latest: number): ResolvedSchedule {
  const frequency = input.frequency ?? 'once';
  const requested = input.starts_at === undefined ? now.getTime() : Date.parse(input.starts_at);
  const errors: Record<string, string[]> = {};
  if (frequency === 'once' && input.max_attempts !== undefined && input.max_attempts !== 1) {
    errors.max_attempts = ['The max attempts field must be 1 when the frequency is once.'];
  }
  if (requested > latest) {
    errors.starts_at = [
      `The starts at field must be a date before or equal to ${new Date(latest).toISOString()}, the latest time the sandbox clock can reach.`,
    ];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const max_attempts = input.max_attempts ?? (frequency === 'once' ? 1 : DEFAULT_RECURRING_ATTEMPTS);
  const starts_at = new Date(Math.max(requested, now.getTime())).toISOString();
  return { ok: true, schedule: { frequency, starts_at, max_attempts } };
}

/** The fields of a request the schedule depends on (the stored record satisfies it). */
export type SchedulableRequest = Pick<ScrapingRequestRecord, 'id' | 'supplier_id' | 'frequency' | 'starts_at' | 'max_attempts' | 'created_at'>;

/** The stable id of attempt `attemptNumber` (1-based) of a request. */
export function attemptId(requestId: string, attemptNumber: number): string {
  // Salted so an attempt id can never equal another hashed id (scraped items, tiers).
  return hashUuid('scraping-attempt', requestId, attemptNumber);
}

/** An attempt's times and outcome, from the request's schedule and the attempt's hashed id alone (cheap: no finds). */
export interface AttemptTiming {
  /** 1-based. */
  number: number;
  id: string;
  scheduled: number;
  started: number;
  ended: number;
  fails: boolean;
}

/** How many attempts the request has in all. */
export function attemptCount(request: Pick<SchedulableRequest, 'frequency' | 'max_attempts'>): number {
  return request.frequency === 'once' ? 1 : request.max_attempts;
}

/** The times and outcome of attempt `number` (1-based) of the request. */
export function attemptTiming(request: SchedulableRequest, number: number): AttemptTiming {
  const period = request.frequency === 'once' ? 0 : FREQUENCY_MS[request.frequency];
  const id = attemptId(request.id, number);
  const scheduled = Date.parse(request.starts_at) + (number - 1) * period;
  const started = scheduled + 1000 * hashInt(START_DELAY_S[0], START_DELAY_S[1], 'start-delay', id);
  const ended = started + 1000 * hashInt(DURATION_S[0], DURATION_S[1], 'duration', id);
  return { number, id, scheduled, started, ended, fails: hashInt(0, 99, 'failure', id) < FAILURE_PERCENT };
}

/** The times and outcome of every attempt of the request, in order. */
export function attemptTimings(request: SchedulableRequest): AttemptTiming[] {
  return Array.from({ length: attemptCount(request) }, (_, k) => attemptTiming(request, k + 1));
}

/** An attempt as the contract shows it at `now`; its found count is read only here, from `catalogues` (the costly part). */
export function presentAttempt(request: SchedulableRequest, timing: AttemptTiming, now: Date, catalogues: SupplierCatalogues): ScrapingAttemptView {
  const { id, number, scheduled, started, ended, fails } = timing;
  const t = now.getTime();
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
    found_items_count: status === 'finished' ? catalogues.foundItemsCount(request.supplier_id, id) : 0,
    failure_reason: status === 'failed' ? FAILURE_REASONS[hashInt(0, FAILURE_REASONS.length - 1, 'reason', id)]! : null,
    created_at: request.created_at,
    updated_at: hasEnded ? iso(ended) : hasStarted ? iso(started) : request.created_at,
  };
}

/** Every attempt of the request (all max_attempts of them, past and future), with its state at `now`. */
export function scheduleAttempts(request: SchedulableRequest, now: Date, catalogues: SupplierCatalogues): ScrapingAttemptView[] {
  return attemptTimings(request).map((timing) => presentAttempt(request, timing, now, catalogues));
}

// Attempts start in order and end in order, each within these lags after its slot: how many have started (or ended)
// by a time follows from the schedule, with at most one attempt near the boundary to read.
const START_LAG_MS = [START_DELAY_S[0] * 1000, START_DELAY_S[1] * 1000] as const;
const END_LAG_MS = [(START_DELAY_S[0] + DURATION_S[0]) * 1000, (START_DELAY_S[1] + DURATION_S[1]) * 1000] as const;

function countBy(request: SchedulableRequest, t: number, lag: readonly [number, number], at: (timing: AttemptTiming) => number): number {
  const count = attemptCount(request);
  const period = request.frequency === 'once' ? 0 : FREQUENCY_MS[request.frequency];
  const start = Date.parse(request.starts_at);
  const slotsBy = (ms: number) => (period === 0 ? (ms >= 0 ? 1 : 0) : Math.floor(ms / period) + 1);
  const clamp = (n: number) => Math.min(count, Math.max(0, n));
  // Slots whose latest possible time has passed surely count; slots whose earliest has not surely do not.
  let n = clamp(slotsBy(t - start - lag[1]));
  const possible = clamp(slotsBy(t - start - lag[0]));
  while (n < possible && at(attemptTiming(request, n + 1)) <= t) n++;
  return n;
}

/** How many of the request's attempts have ended by `t` (ms): they end in order, so these are the first ones. */
export function endedCount(request: SchedulableRequest, t: number): number {
  return countBy(request, t, END_LAG_MS, (timing) => timing.ended);
}

/** How many of the request's attempts have started by `t` (ms): the first ones. */
export function startedCount(request: SchedulableRequest, t: number): number {
  return countBy(request, t, START_LAG_MS, (timing) => timing.started);
}

/** The request's derived status and counters at `now`, read from at most two attempts near `now`. */
export function requestState(request: SchedulableRequest, now: Date): ScrapingRequestState {
  const t = now.getTime();
  const count = attemptCount(request);
  const ended = endedCount(request, t);
  const started = startedCount(request, t);
  const period = request.frequency === 'once' ? 0 : FREQUENCY_MS[request.frequency];
  return {
    status: ended === count ? 'completed' : started > 0 ? 'running' : 'scheduled',
    attempts_finished_count: ended,
    next_attempt_at: started < count ? new Date(Date.parse(request.starts_at) + started * period).toISOString() : null,
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
