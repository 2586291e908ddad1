// How a scraping attempt's finds show up: when an attempt finishes, each item it found becomes (new SKU) or
// refreshes (known SKU) a supplier item of that supplier. Applied lazily ("catch-up") by whichever request next
// reads the supplier's items or scraping state, so no background timer is needed and the clock alone drives it.
import type { CostTierRecord, ScrapingRequestRecord, SupplierItemIdentifierRecord, SupplierItemRecord, SupplierRecord } from '../record-types.js';
import { MAX_COST_TIERS, sortTiers } from './cost-tiers.js';
import { hashUuid } from './deterministic.js';
import { attemptTiming, endedCount } from './scraping-schedule.js';
import { foundEntry, supplierCatalogue, type CatalogueEntry, type FoundEntry } from './supplier-catalogue.js';

/** What catch-up writes: new items and identifiers, replaced existing items, and each request's new applied count. */
export interface CatchUpResult {
  inserts: SupplierItemRecord[];
  identifier_inserts: SupplierItemIdentifierRecord[];
  updates: SupplierItemRecord[];
  applied: { request_id: string; applied_attempts: number }[];
}

/**
 * Applies, in order of finished_at, every attempt of the supplier's requests that has ended by `now` and was not
 * applied yet. Rules per found item (matched by non-null SKU among the supplier's items):
 * - unknown SKU: a new supplier item (product_id null, description, the attempt's tiers, UPC and EAN identifiers),
 *   created_at = updated_at = the attempt's finished_at; ids are hashed from the attempt and SKU, so a replay is identical;
 * - known SKU: each found tier updates the cost of the tier with the same minimum_order_quantity (keeping its id,
 *   so forecasts stay attached) or is added while the item has fewer than 20 tiers (MAX_COST_TIERS); tiers the
 *   attempt did not see are kept, so scraping never deletes a tier (nor the forecasts on it); costs take the
 *   supplier's default_currency;
 * - stock: a found item's published stock becomes stock_quantity; an entry without published stock leaves it as
 *   it was (null on a new item), so scraping never erases a stock level a client entered;
 * - an item changed by a client after the attempt finished is left alone: the newer edit wins;
 * - items the attempt did not find are left as they are; failed attempts only advance the counter.
 */
export function catchUpScraping(args: {
  supplier: SupplierRecord;
  /** The supplier's catalogue, what its attempts find entries of: by default built now (catch-up passes the kept one). */
  catalogue?: readonly CatalogueEntry[];
  requests: readonly ScrapingRequestRecord[];
  items: readonly SupplierItemRecord[];
  now: Date;
  /** What an attempt found of one entry (a test counts the calls: the work done). */
  find?: (attemptId: string, entry: CatalogueEntry) => FoundEntry | null;
}): CatchUpResult {
  const { supplier, catalogue = supplierCatalogue(supplier.id), find = foundEntry } = args;
  const pending = new PendingAttempts(args.requests, args.now.getTime());
  const bySku = new Map<string, SupplierItemRecord>();
  for (const item of args.items) if (item.sku !== null) bySku.set(item.sku, item);

  // Each item's outcome is decided by few attempts, whatever their number: the first that finds it (which creates it,
  // or adds the tiers it lacked), the last (whose costs and stock it ends with), and the run of attempts before the
  // last that found the same values (the first of them is when it last changed). So an item reads only those, and
  // the attempts' times are read lazily, from both ends of the ended, unapplied ones.
  const inserts: { first: PendingAttempt; index: number; item: SupplierItemRecord; identifiers: SupplierItemIdentifierRecord[] }[] = [];
  const updates: SupplierItemRecord[] = [];
  catalogue.forEach((entry, index) => {
    const current = bySku.get(entry.sku);
    // A client's edit newer than an attempt wins over that attempt: only attempts ended at or after it count.
    const fromMs = current === undefined ? -Infinity : Date.parse(current.updated_at);
    const decided = decidingFinds(pending, fromMs, (attempt) => find(attempt.id, entry));
    if (decided === undefined) return;
    const { first, last, changedAt } = decided;
    const tierId = (moq: number) => hashUuid('scraped-tier', first.attempt.id, entry.sku, moq);
    if (current === undefined) {
      const id = hashUuid('scraped-item', first.attempt.id, entry.sku);
      const costs = last.found.tiers.map((t) => ({
        id: tierId(t.minimum_order_quantity),
        minimum_order_quantity: t.minimum_order_quantity,
        cost: { value: t.value, currency: supplier.default_currency },
      }));
      const created = first.attempt.at;
      inserts.push({
        first: first.attempt,
        index,
        item: {
          id,
          merchant_id: supplier.merchant_id,
          supplier_id: supplier.id,
          sku: entry.sku,
          description: entry.description,
          product_id: null,
          costs: changedAt !== first.attempt ? sortTiers(costs) : costs,
          stock_quantity: last.found.stock_units,
          created_at: created,
          updated_at: changedAt.at,
        },
        identifiers: entry.identifiers.map((identifier) => ({
          id: hashUuid('scraped-identifier', first.attempt.id, entry.sku, identifier.type),
          supplier_item_id: id,
          type: identifier.type,
          value: identifier.value,
          created_at: created,
          updated_at: created,
        })),
      });
      return;
    }
    // The first attempt changes the item only if its merge differs; the later run changes it by construction.
    const merged = (found: FoundEntry) => mergeFound(current, found, supplier.default_currency, tierId);
    if (changedAt === first.attempt && !merged(first.found).changed) return;
    updates.push({ ...current, ...merged(last.found).fields, updated_at: changedAt.at });
  });

  inserts.sort((a, b) => compareAttempts(a.first, b.first) || a.index - b.index);
  return {
    inserts: inserts.map((i) => i.item),
    identifier_inserts: inserts.flatMap((i) => i.identifiers),
    updates,
    applied: pending.applied,
  };
}

/** An ended attempt that found items, not applied yet; `at` is its finished_at. */
interface PendingAttempt {
  id: string;
  endedMs: number;
  at: string;
}

/** The order catch-up applies attempts in: finished_at, then id. */
function compareAttempts(a: PendingAttempt, b: PendingAttempt): number {
  return a.endedMs - b.endedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * The ended, unapplied, successful attempts of a supplier's requests, walked in order of finished_at (then id) from
 * either end. Attempts of one request end in order (see scraping-schedule), so each request's are a range of
 * attempt numbers, found from the schedule; an attempt's time is read (hashed) only when a walk reaches it.
 */
class PendingAttempts {
  /** Each request's new applied count (only requests with newly ended attempts). */
  readonly applied: CatchUpResult['applied'] = [];
  private readonly ranges: { request: ScrapingRequestRecord; from: number; to: number }[] = [];
  private readonly timings = new Map<string, PendingAttempt & { fails: boolean }>();

  constructor(requests: readonly ScrapingRequestRecord[], nowMs: number) {
    for (const request of requests) {
      const ended = endedCount(request, nowMs);
      if (ended <= request.applied_attempts) continue;
      this.applied.push({ request_id: request.id, applied_attempts: ended });
      this.ranges.push({ request, from: request.applied_attempts + 1, to: ended });
    }
  }

  private attempt(request: ScrapingRequestRecord, number: number): PendingAttempt & { fails: boolean } {
    const key = `${request.id}|${number}`;
    let attempt = this.timings.get(key);
    if (!attempt) {
      const timing = attemptTiming(request, number);
      attempt = { id: timing.id, endedMs: timing.ended, at: new Date(timing.ended).toISOString(), fails: timing.fails };
      this.timings.set(key, attempt);
    }
    return attempt;
  }

  /** The successful attempts that ended at or after `fromMs`, oldest first. */
  *forward(fromMs: number): Generator<PendingAttempt> {
    // Per request, the first attempt ended at or after fromMs: those ended before it are counted from the schedule.
    const heads = this.ranges.map(({ request, from, to }) => ({
      request,
      next: Math.max(from, fromMs === -Infinity ? from : endedCount(request, fromMs - 1) + 1),
      to,
    }));
    yield* this.merge(heads, 1);
  }

  /** The successful attempts, newest first, down to (and including) `until`. */
  *backward(until: PendingAttempt): Generator<PendingAttempt> {
    for (const attempt of this.merge(
      this.ranges.map(({ request, from, to }) => ({ request, next: to, to: from })),
      -1,
    )) {
      if (compareAttempts(attempt, until) < 0) return;
      yield attempt;
    }
  }

  /** A k-way merge of the requests' ranges, walking each by `step` from `next` to `to` (inclusive). */
  private *merge(heads: { request: ScrapingRequestRecord; next: number; to: number }[], step: 1 | -1): Generator<PendingAttempt> {
    const within = (h: { next: number; to: number }) => (step === 1 ? h.next <= h.to : h.next >= h.to);
    for (;;) {
      let best: { head: (typeof heads)[number]; attempt: PendingAttempt & { fails: boolean } } | undefined;
      for (const head of heads) {
        if (!within(head)) continue;
        const attempt = this.attempt(head.request, head.next);
        if (!best || compareAttempts(attempt, best.attempt) * step < 0) best = { head, attempt };
      }
      if (!best) return;
      best.head.next += step;
      if (!best.attempt.fails) yield best.attempt;
    }
  }
}

type Find = { attempt: PendingAttempt; found: FoundEntry };

/**
 * The attempts that decide an entry's item, among those ended at or after `fromMs`: the first that finds it, the
 * last that finds it, and the last that changed it, found by walking back from the last over the finds with the
 * same values (those changed nothing), down to the first find at most.
 */
function decidingFinds(
  pending: PendingAttempts,
  fromMs: number,
  finds: (attempt: PendingAttempt) => FoundEntry | null,
): { first: Find; last: Find; changedAt: PendingAttempt } | undefined {
  let first: Find | undefined;
  for (const attempt of pending.forward(fromMs)) {
    const found = finds(attempt);
    if (found) {
      first = { attempt, found };
      break;
    }
  }
  if (!first) return undefined;
  let last: Find | undefined;
  let changedAt = first.attempt;
  for (const attempt of pending.backward(first.attempt)) {
    const found = attempt === first.attempt ? first.found : finds(attempt);
    if (!found) continue;
    if (!last) last = { attempt, found };
    else if (!sameValues(found, last.found)) break;
    changedAt = attempt;
  }
  return { first, last: last ?? first, changedAt };
}

function sameValues(a: FoundEntry, b: FoundEntry): boolean {
  return a.stock_units === b.stock_units && a.tiers.every((t, i) => t.value === b.tiers[i]!.value);
}

/**
 * An existing item with an attempt's finds merged in: each found tier updates the cost of the tier with the same
 * minimum_order_quantity or is added (id from `tierId`) while the item has fewer than MAX_COST_TIERS tiers; other
 * tiers are kept; stock moves only when published.
 */
function mergeFound(
  current: SupplierItemRecord,
  found: FoundEntry,
  currency: string,
  tierId: (moq: number) => string,
): { changed: boolean; fields: Pick<SupplierItemRecord, 'costs' | 'stock_quantity'> } {
  const costs: CostTierRecord[] = current.costs.map((t) => ({ ...t, cost: { ...t.cost } }));
  let changed = false;
  for (const tier of found.tiers) {
    const cost = { value: tier.value, currency };
    const same = costs.find((t) => t.minimum_order_quantity === tier.minimum_order_quantity);
    if (!same) {
      // An item at the tier bound keeps its tiers: a found quantity it lacks is not added (it never loses one).
      if (costs.length >= MAX_COST_TIERS) continue;
      costs.push({ id: tierId(tier.minimum_order_quantity), minimum_order_quantity: tier.minimum_order_quantity, cost });
      changed = true;
    } else if (same.cost.value !== cost.value || same.cost.currency !== cost.currency) {
      same.cost = cost;
      changed = true;
    }
  }
  const stock_quantity = found.stock_units ?? current.stock_quantity;
  if (stock_quantity !== current.stock_quantity) changed = true;
  return { changed, fields: { costs: sortTiers(costs), stock_quantity } };
}
