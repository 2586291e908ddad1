// How a scraping attempt's finds show up: when an attempt finishes, each item it found becomes (new SKU) or
// refreshes (known SKU) a supplier item of that supplier. Applied lazily ("catch-up") by whichever request next
// reads the supplier's items or scraping state, so no background timer is needed and the clock alone drives it.
import type {
  CostTierRecord,
  ScrapingRequestRecord,
  SupplierItemIdentifierRecord,
  SupplierItemRecord,
  SupplierRecord,
} from '../record-types.js';
import { sortTiers } from './cost-tiers.js';
import { hashUuid } from './deterministic.js';
import { scheduleAttempts, type ScrapingAttemptView } from './scraping-schedule.js';
import { entriesFoundBy } from './supplier-catalogue.js';

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
 *   so forecasts stay attached) or is added; tiers the attempt did not see are kept, so scraping never deletes a
 *   tier (nor the forecasts on it); costs take the supplier's default_currency;
 * - stock: a found item's published stock becomes stock_quantity; an entry without published stock leaves it as
 *   it was (null on a new item), so scraping never erases a stock level a client entered;
 * - an item changed by a client after the attempt finished is left alone: the newer edit wins;
 * - items the attempt did not find are left as they are; failed attempts only advance the counter.
 */
export function catchUpScraping(args: {
  supplier: SupplierRecord;
  requests: readonly ScrapingRequestRecord[];
  items: readonly SupplierItemRecord[];
  now: Date;
}): CatchUpResult {
  const { supplier, now } = args;
  const pending: ScrapingAttemptView[] = [];
  const applied: CatchUpResult['applied'] = [];
  for (const request of args.requests) {
    const ended = scheduleAttempts(request, now).filter((a) => a.finished_at !== null);
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
    for (const { entry, tiers, stock_units } of entriesFoundBy(supplier.id, attempt.id)) {
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
