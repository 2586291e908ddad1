// One page of a supplier's scraping attempts, at the cost of the page: no attempt outside it is built. Within one
// request, attempts are scheduled in order and start in order, so what a filter keeps of a request is a contiguous
// range of attempt numbers, counted by arithmetic; the page's first attempt is found by a binary search on the
// scheduled time, and the page is merged from the requests' ranges from there. The order is filterAttempts's
// (scheduled_to_run_at, then id), which the property test test/sourcing/attempt-page.property.test.ts checks.
import {
  attemptCount,
  attemptId,
  attemptTiming,
  FREQUENCY_MS,
  startedCount,
  type AttemptFilter,
  type AttemptTiming,
  type SchedulableRequest,
} from './scraping-schedule.js';

/** The attempt numbers of a request a filter keeps, `first` to `last` (none when first > last). */
interface KeptRange {
  request: SchedulableRequest;
  start: number;
  period: number;
  first: number;
  last: number;
}

const DAY_MS = 86_400_000;

/** What the filter keeps of one request at `t` (ms). */
function keptRange(request: SchedulableRequest, filter: AttemptFilter, t: number): KeptRange {
  const start = Date.parse(request.starts_at);
  const period = request.frequency === 'once' ? 0 : FREQUENCY_MS[request.frequency];
  let first = 1;
  let last = attemptCount(request);
  // scheduled(n) = start + (n - 1) * period: the numbers whose slot lies in [from, toExclusive).
  if (filter.from_date) {
    const from = Date.parse(`${filter.from_date}T00:00:00.000Z`);
    first = Math.max(first, period === 0 ? (start >= from ? 1 : last + 1) : Math.ceil((from - start) / period) + 1);
  }
  if (filter.to_date) {
    const toExclusive = Date.parse(`${filter.to_date}T00:00:00.000Z`) + DAY_MS;
    last = Math.min(last, period === 0 ? (start < toExclusive ? 1 : 0) : Math.ceil((toExclusive - start) / period));
  }
  if (filter.not_started !== undefined) {
    const started = startedCount(request, t);
    if (filter.not_started) first = Math.max(first, started + 1);
    else last = Math.min(last, started);
  }
  return { request, start, period, first, last };
}

const scheduledOf = (range: KeptRange, n: number): number => range.start + (n - 1) * range.period;

/** How many kept attempts of the range are scheduled before `time`. */
function countBefore(range: KeptRange, time: number): number {
  if (range.first > range.last || scheduledOf(range, range.first) >= time) return 0;
  if (range.period === 0) return range.last - range.first + 1;
  // The last n with scheduled(n) < time.
  const below = Math.min(range.last, Math.ceil((time - range.start) / range.period));
  return below - range.first + 1;
}

/** The first kept attempt number of the range scheduled at or after `time` (last + 1 when none). */
function firstAtOrAfter(range: KeptRange, time: number): number {
  return range.first + countBefore(range, time);
}

/** One attempt on the page, before it is presented (presenting reads its finds, the costly part). */
export interface PagedAttempt {
  request: SchedulableRequest;
  timing: AttemptTiming;
}

/** The attempts a filter keeps, in list order: how many, and any run of them, each built only when asked for. */
export interface KeptAttempts {
  total: number;
  /** The `count` attempts from position `offset` (0-based). */
  slice(offset: number, count: number): PagedAttempt[];
}

/** The attempts of `requests` the filter keeps at `now`. */
export function keptAttempts(requests: readonly SchedulableRequest[], filter: AttemptFilter, now: Date): KeptAttempts {
  const ranges = requests.map((r) => keptRange(r, filter, now.getTime())).filter((r) => r.first <= r.last);
  const total = ranges.reduce((sum, r) => sum + r.last - r.first + 1, 0);
  return { total, slice: (offset, count) => (offset >= total || count <= 0 ? [] : sliceOf(ranges, offset, count)) };
}

function sliceOf(ranges: readonly KeptRange[], offset: number, count: number): PagedAttempt[] {
  const before = (time: number) => ranges.reduce((sum, r) => sum + countBefore(r, time), 0);

  // The scheduled time of the attempt at `offset`: the largest time with at most `offset` attempts before it.
  let low = ranges.reduce((min, r) => Math.min(min, scheduledOf(r, r.first)), Infinity);
  let high = ranges.reduce((max, r) => Math.max(max, scheduledOf(r, r.last)), -Infinity);
  while (low < high) {
    const mid = low + Math.ceil((high - low) / 2);
    if (before(mid) <= offset) low = mid;
    else high = mid - 1;
  }
  let skip = offset - before(low);

  // Merge the ranges from that time on, by (scheduled, id): each range offers its next attempt, whose id (a hash)
  // is read only when another head is scheduled at the same time.
  const heads: Head[] = [];
  for (const range of ranges) {
    const n = firstAtOrAfter(range, low);
    if (n <= range.last) heads.push({ range, n, scheduled: scheduledOf(range, n) });
  }
  const data: PagedAttempt[] = [];
  while (data.length < count && heads.length > 0) {
    let best = 0;
    for (let i = 1; i < heads.length; i++) if (precedes(heads[i]!, heads[best]!)) best = i;
    const head = heads[best]!;
    if (skip > 0) skip--;
    else data.push({ request: head.range.request, timing: attemptTiming(head.range.request, head.n) });
    if (head.n < head.range.last) {
      head.n++;
      head.scheduled = scheduledOf(head.range, head.n);
      head.id = undefined;
    } else heads.splice(best, 1);
  }
  return data;
}

/** A range's next attempt in the merge. */
interface Head {
  range: KeptRange;
  n: number;
  scheduled: number;
  id?: string;
}

const idOf = (head: Head): string => (head.id ??= attemptId(head.range.request.id, head.n));

/** List order: scheduled first, then id. */
const precedes = (a: Head, b: Head): boolean => a.scheduled < b.scheduled || (a.scheduled === b.scheduled && idOf(a) < idOf(b));
