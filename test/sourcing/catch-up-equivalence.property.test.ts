// The catch-up decides each supplier item from the few attempts that matter (first find, last find, the run of
// equal finds before it). Here it is checked against the rule as written, attempt by attempt: the step-by-step
// catch-up the sandbox used before, kept as the reference, on random schedules, clocks and client edits.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catchUpScraping, type CatchUpResult } from '../../src/areas/sourcing/rules/found-items.js';
import { MAX_COST_TIERS, sortTiers } from '../../src/areas/sourcing/rules/cost-tiers.js';
import { hashUuid } from '../../src/areas/sourcing/rules/deterministic.js';
import {
  attemptTimings,
  endedCount,
  requestState,
  scheduleAttempts,
  startedCount,
  type ScrapingAttemptView,
} from '../../src/areas/sourcing/rules/scraping-schedule.js';
import { catalogueEntry, catalogueSize, SupplierCatalogues } from '../../src/areas/sourcing/rules/supplier-catalogue.js';
import type {
  CostTierRecord,
  ScrapingRequestRecord,
  SupplierItemIdentifierRecord,
  SupplierItemRecord,
  SupplierRecord,
} from '../../src/areas/sourcing/record-types.js';

const catalogues = new SupplierCatalogues();

/** The rule applied one attempt at a time, in order of finished_at: the reference. */
function stepByStep(args: {
  supplier: SupplierRecord;
  requests: readonly ScrapingRequestRecord[];
  items: readonly SupplierItemRecord[];
  now: Date;
}): CatchUpResult {
  const { supplier, now } = args;
  const pending: ScrapingAttemptView[] = [];
  const applied: CatchUpResult['applied'] = [];
  for (const request of args.requests) {
    const ended = scheduleAttempts(request, now, catalogues).filter((a) => a.finished_at !== null);
    // Attempts of one request end in order (see scraping-schedule), so "ended count" is a safe high-water mark.
    if (ended.length > request.applied_attempts) {
      pending.push(...ended.slice(request.applied_attempts).filter((a) => a.status === 'finished'));
      applied.push({ request_id: request.id, applied_attempts: ended.length });
    }
  }
  pending.sort((a, b) => a.finished_at!.localeCompare(b.finished_at!) || a.id.localeCompare(b.id));

  const bySku = new Map<string, SupplierItemRecord>();
  for (const item of args.items) if (item.sku !== null) bySku.set(item.sku, item);
  const inserted = new Set<string>();
  const updated = new Set<string>();
  const identifier_inserts: SupplierItemIdentifierRecord[] = [];

  for (const attempt of pending) {
    const at = attempt.finished_at!;
    for (const { entry, tiers, stock_units } of catalogues.entriesFoundBy(supplier.id, attempt.id)) {
      const tierId = (moq: number) => hashUuid('scraped-tier', attempt.id, entry.sku, moq);
      const current = bySku.get(entry.sku);
      if (!current) {
        const id = hashUuid('scraped-item', attempt.id, entry.sku);
        bySku.set(entry.sku, {
          id,
          merchant_id: supplier.merchant_id,
          supplier_id: supplier.id,
          sku: entry.sku,
          description: entry.description,
          product_id: null,
          costs: tiers.map((t) => ({
            id: tierId(t.minimum_order_quantity),
            minimum_order_quantity: t.minimum_order_quantity,
            cost: { value: t.value, currency: supplier.default_currency },
          })),
          stock_quantity: stock_units,
          created_at: at,
          updated_at: at,
        });
        inserted.add(entry.sku);
        for (const identifier of entry.identifiers) {
          identifier_inserts.push({
            id: hashUuid('scraped-identifier', attempt.id, entry.sku, identifier.type),
            supplier_item_id: id,
            type: identifier.type,
            value: identifier.value,
            created_at: at,
            updated_at: at,
          });
        }
        continue;
      }
      if (current.updated_at > at) continue;
      const costs: CostTierRecord[] = current.costs.map((t) => ({ ...t, cost: { ...t.cost } }));
      let changed = false;
      for (const found of tiers) {
        const cost = { value: found.value, currency: supplier.default_currency };
        const same = costs.find((t) => t.minimum_order_quantity === found.minimum_order_quantity);
        if (!same) {
          if (costs.length >= MAX_COST_TIERS) continue;
          costs.push({ id: tierId(found.minimum_order_quantity), minimum_order_quantity: found.minimum_order_quantity, cost });
          changed = true;
        } else if (same.cost.value !== cost.value || same.cost.currency !== cost.currency) {
          same.cost = cost;
          changed = true;
        }
      }
      const stock_quantity = stock_units ?? current.stock_quantity;
      if (stock_quantity !== current.stock_quantity) changed = true;
      if (!changed) continue;
      bySku.set(entry.sku, { ...current, costs: sortTiers(costs), stock_quantity, updated_at: at });
      if (!inserted.has(entry.sku)) updated.add(entry.sku);
    }
  }

  return {
    inserts: [...inserted].map((sku) => bySku.get(sku)!),
    identifier_inserts,
    updates: [...updated].map((sku) => bySku.get(sku)!),
    applied,
  };
}

const START = Date.parse('2024-08-20T06:00:00.000Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

const scenario = fc
  .record({
    supplierSalt: fc.nat(5),
    requests: fc.array(
      fc.record({
        frequency: fc.constantFrom('once', 'hourly', 'daily', 'weekly'),
        startHours: fc.nat(72),
        attempts: fc.integer({ min: 1, max: 40 }),
        appliedShare: fc.double({ min: 0, max: 1, noNaN: true }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    items: fc.array(
      fc.record({
        index: fc.nat(44),
        updatedHours: fc.integer({ min: -48, max: 24 * 60 }),
        costs: fc.array(fc.record({ moq: fc.constantFrom<number>(1, 6, 12, 24, 48, 100, 250, 9999), value: fc.constantFrom<number>(1, 2.5, 10) }), {
          maxLength: 3,
        }),
        // Tiers of quantities no catalogue uses, up to the 20-tier bound (MAX_COST_TIERS), where finds stop adding.
        extraTiers: fc.nat(17),
        stock: fc.option(fc.nat(100)),
        // The item already holds what the first unapplied attempt finds: that attempt changes nothing.
        asFirstFind: fc.boolean(),
      }),
      { maxLength: 6 },
    ),
    nowHours: fc.integer({ min: 0, max: 24 * 90 }),
    currency: fc.constantFrom('USD', 'GBP'),
  })
  .map((s) => {
    const supplier: SupplierRecord = {
      id: hashUuid('equivalence-supplier', s.supplierSalt),
      merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
      name: 'Equivalence Co',
      default_currency: s.currency,
      created_at: iso(START - 48 * HOUR),
      updated_at: iso(START - 48 * HOUR),
    };
    const now = new Date(START + s.nowHours * HOUR);
    const requests: ScrapingRequestRecord[] = s.requests.map((r, i) => {
      const base = {
        id: hashUuid('equivalence-request', s.supplierSalt, i),
        merchant_id: supplier.merchant_id,
        supplier_id: supplier.id,
        source_url: 'https://equivalence.example.com/prices',
        frequency: r.frequency as ScrapingRequestRecord['frequency'],
        starts_at: iso(START + r.startHours * HOUR),
        max_attempts: r.frequency === 'once' ? 1 : r.attempts,
        applied_attempts: 0,
        created_at: iso(START - HOUR),
        updated_at: iso(START - HOUR),
      };
      // Some attempts were applied by an earlier read: a prefix of those ended by now.
      const ended = scheduleAttempts(base, now, catalogues).filter((a) => a.finished_at !== null).length;
      return { ...base, applied_attempts: Math.floor(ended * r.appliedShare) };
    });
    const size = catalogueSize(supplier.id);
    const firstPending = scheduleAttempts(requests[0]!, now, catalogues)[requests[0]!.applied_attempts];
    const firstFinds = firstPending?.status === 'finished' ? catalogues.entriesFoundBy(supplier.id, firstPending.id) : [];
    const items: SupplierItemRecord[] = s.items.map((item, i) => {
      const entry = catalogueEntry(supplier.id, item.index % size);
      const found = item.asFirstFind ? firstFinds.find((f) => f.entry.sku === entry.sku) : undefined;
      if (found) {
        item.costs = found.tiers.map((t) => ({ moq: t.minimum_order_quantity, value: t.value }));
        item.stock = found.stock_units;
        item.updatedHours = -48;
      }
      return {
        id: hashUuid('equivalence-item', s.supplierSalt, i),
        merchant_id: supplier.merchant_id,
        supplier_id: supplier.id,
        sku: entry.sku,
        description: 'client-written',
        product_id: null,
        costs: [...item.costs, ...Array.from({ length: item.extraTiers }, (_, k) => ({ moq: 1000 + k, value: 1 }))].map((c, k) => ({
          id: hashUuid('equivalence-tier', i, k),
          minimum_order_quantity: c.moq,
          cost: { value: c.value, currency: found ? s.currency : 'USD' },
        })),
        stock_quantity: item.stock,
        created_at: iso(START - 48 * HOUR),
        updated_at: iso(START + item.updatedHours * HOUR),
      };
    });
    return { supplier, requests, items, now };
  });

/** Updates are written one by one whatever their order: compare them by id. */
const comparable = (r: CatchUpResult) => ({ ...r, updates: [...r.updates].sort((a, b) => a.id.localeCompare(b.id)) });

describe('catch-up from the attempts that matter', () => {
  it('When any schedule, clock and client edits are caught up, then the result equals applying every attempt in order', () => {
    fc.assert(
      fc.property(scenario, (args) => {
        expect(comparable(catchUpScraping(args))).toEqual(comparable(stepByStep(args)));
      }),
      { numRuns: 100, seed: 20240901 },
    );
  });

  it('When every existing item was edited by a client after the last attempt ended, then catch-up leaves them all alone', () => {
    const args = fc.sample(scenario, { numRuns: 1, seed: 7 })[0]!;
    const late = args.items.map((item) => ({ ...item, updated_at: iso(args.now.getTime() + HOUR) }));
    expect(catchUpScraping({ ...args, items: late }).updates).toEqual([]);
    expect(stepByStep({ ...args, items: late }).updates).toEqual([]);
  });
});

describe('counts read from the schedule', () => {
  it('When any request is read at any time, then its started and ended counts and state equal counting every attempt', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: -2 * 24 * 60, max: 24 * 60 * 120 }), ({ requests }, minutes) => {
        const t = START + minutes * 60_000;
        for (const request of requests) {
          const timings = attemptTimings(request);
          expect(endedCount(request, t)).toBe(timings.filter((a) => t >= a.ended).length);
          expect(startedCount(request, t)).toBe(timings.filter((a) => t >= a.started).length);
          const views = scheduleAttempts(request, new Date(t), catalogues);
          const next = views.find((a) => a.attempt_started_at === null);
          const ended = views.filter((a) => a.finished_at !== null).length;
          expect(requestState(request, new Date(t))).toEqual({
            status: ended === views.length ? 'completed' : views.some((a) => a.attempt_started_at !== null) ? 'running' : 'scheduled',
            attempts_finished_count: ended,
            next_attempt_at: next ? next.scheduled_to_run_at : null,
          });
        }
      }),
      { numRuns: 100, seed: 20240901 },
    );
  });
});
