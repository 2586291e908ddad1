import { describe, expect, it } from 'vitest';
import { catchUpScraping } from '../../src/areas/sourcing/rules/found-items.js';
import { scheduleAttempts } from '../../src/areas/sourcing/rules/scraping-schedule.js';
import { catalogueEntry } from '../../src/areas/sourcing/rules/supplier-catalogue.js';
import type { ScrapingRequestRecord, SupplierItemRecord, SupplierRecord } from '../../src/areas/sourcing/record-types.js';

const supplier: SupplierRecord = {
  id: 'e1e1e1e1-e1e1-4e1e-8e1e-e1e1e1e1e001',
  merchant_id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  name: 'Cascade Outdoor Wholesale',
  default_currency: 'USD',
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
};
const request: ScrapingRequestRecord = {
  id: 'e5e5e5e5-e5e5-4e5e-8e5e-e5e5e5e5e001',
  merchant_id: supplier.merchant_id,
  supplier_id: supplier.id,
  source_url: 'https://cascade.example.com/price-list',
  frequency: 'daily',
  starts_at: '2024-08-20T06:00:00.000Z',
  max_attempts: 5,
  applied_attempts: 0,
  created_at: '2024-08-19T15:30:00.000Z',
  updated_at: '2024-08-19T15:30:00.000Z',
};
const entry0 = catalogueEntry(supplier.id, 0);
const existing: SupplierItemRecord = {
  id: 'e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e001',
  merchant_id: supplier.merchant_id,
  supplier_id: supplier.id,
  sku: entry0.sku,
  description: 'client-written description',
  product_id: 'dddddddd-dddd-4ddd-8ddd-ddddddddd001',
  costs: [
    { id: 'e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e001', minimum_order_quantity: entry0.tiers[0]!.minimum_order_quantity, cost: { value: 1, currency: 'USD' } },
    { id: 'e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e099', minimum_order_quantity: 9999, cost: { value: 1, currency: 'USD' } },
  ],
  stock_quantity: null,
  created_at: '2024-08-01T00:00:00.000Z',
  updated_at: '2024-08-01T00:00:00.000Z',
};

describe('catchUpScraping', () => {
  it('When no attempt has ended, then nothing is written', () => {
    const r = catchUpScraping({ supplier, requests: [request], items: [], now: new Date('2024-08-20T05:00:00Z') });
    expect(r).toEqual({ inserts: [], identifier_inserts: [], updates: [], applied: [] });
  });

  it('When attempts have ended, then found SKUs become supplier items with identifiers, dated at the attempt end', () => {
    const now = new Date('2024-08-22T00:00:00Z');
    const r = catchUpScraping({ supplier, requests: [request], items: [], now });
    const ended = scheduleAttempts(request, now).filter((a) => a.finished_at);
    expect(r.applied).toEqual([{ request_id: request.id, applied_attempts: ended.length }]);
    expect(r.inserts.length).toBeGreaterThan(20);
    const firstFinish = ended.find((a) => a.status === 'finished')!.finished_at;
    for (const item of r.inserts) {
      expect(item).toMatchObject({ merchant_id: supplier.merchant_id, supplier_id: supplier.id, product_id: null });
      expect(item.created_at >= firstFinish!).toBe(true);
      expect(item.costs.every((c) => c.cost.currency === 'USD')).toBe(true);
    }
    const itemIds = new Set(r.inserts.map((i) => i.id));
    expect(r.identifier_inserts.every((x) => itemIds.has(x.supplier_item_id))).toBe(true);
    expect(r.updates).toEqual([]);
  });

  it('When a found SKU is already an item, then matching tiers keep their ids with new costs and other tiers stay', () => {
    const now = new Date('2024-08-25T00:00:00Z');
    const r = catchUpScraping({ supplier, requests: [request], items: [existing], now });
    const updated = r.updates.find((i) => i.id === existing.id)!;
    expect(updated).toBeDefined();
    expect(updated.description).toBe('client-written description');
    expect(updated.product_id).toBe(existing.product_id);
    const ids = updated.costs.map((c) => c.id);
    expect(ids).toContain('e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e001');
    expect(ids).toContain('e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e099');
    expect(updated.costs.find((c) => c.id === 'e3e3e3e3-e3e3-4e3e-8e3e-e3e3e3e3e001')!.cost.value).not.toBe(1);
    expect(r.inserts.some((i) => i.sku === existing.sku)).toBe(false);
  });

  it('When a client changed the item after the attempt finished, then the newer edit wins', () => {
    const edited = { ...existing, updated_at: '2024-12-01T00:00:00.000Z' };
    const r = catchUpScraping({ supplier, requests: [request], items: [edited], now: new Date('2024-08-25T00:00:00Z') });
    expect(r.updates).toEqual([]);
  });

  it('When attempts were already applied, then catching up again writes nothing new', () => {
    const now = new Date('2024-08-30T00:00:00Z');
    const first = catchUpScraping({ supplier, requests: [request], items: [], now });
    const again = catchUpScraping({
      supplier,
      requests: [{ ...request, applied_attempts: first.applied[0]!.applied_attempts }],
      items: first.inserts,
      now,
    });
    expect(again).toEqual({ inserts: [], identifier_inserts: [], updates: [], applied: [] });
  });

  it('When catch-up runs in two steps or one, then the resulting items are the same', () => {
    const mid = new Date('2024-08-22T12:00:00Z');
    const end = new Date('2024-08-30T00:00:00Z');
    const oneStep = catchUpScraping({ supplier, requests: [request], items: [], now: end });
    const step1 = catchUpScraping({ supplier, requests: [request], items: [], now: mid });
    const step2 = catchUpScraping({
      supplier,
      requests: [{ ...request, applied_attempts: step1.applied[0]!.applied_attempts }],
      items: step1.inserts,
      now: end,
    });
    const merged = new Map(step1.inserts.map((i) => [i.id, i]));
    for (const i of [...step2.inserts, ...step2.updates]) merged.set(i.id, i);
    const byId = (a: SupplierItemRecord, b: SupplierItemRecord) => a.id.localeCompare(b.id);
    expect([...merged.values()].sort(byId)).toEqual([...oneStep.inserts].sort(byId));
  });
});

describe('catchUpScraping and supplier stock', () => {
  const now = new Date('2024-08-25T00:00:00Z');

  it('When a new item is found, then its stock is what that attempt saw: null, or within 30% of the published level', () => {
    const r = catchUpScraping({ supplier, requests: [request], items: [], now });
    const catalogue = new Map(r.inserts.map((i) => [i.sku, catalogueEntry(supplier.id, Number(i.sku!.split('-')[1]) - 1)]));
    expect(r.inserts.some((i) => i.stock_quantity === null)).toBe(true);
    expect(r.inserts.some((i) => i.stock_quantity !== null)).toBe(true);
    for (const item of r.inserts) {
      const published = catalogue.get(item.sku)!.stock_units;
      if (published === null) expect(item.stock_quantity).toBeNull();
      else expect(Math.abs(item.stock_quantity! - published)).toBeLessThanOrEqual(published * 0.3 + 0.5);
    }
  });

  it('When a known item is found, then published stock replaces its stock; an entry without published stock keeps the client value', () => {
    const publishing = Array.from({ length: 30 }, (_, i) => catalogueEntry(supplier.id, i));
    const withStock = publishing.find((e) => e.stock_units !== null && e.stock_units > 100)!;
    const withoutStock = publishing.find((e) => e.stock_units === null)!;
    const known = (sku: string, id: string): SupplierItemRecord => ({ ...existing, id, sku, stock_quantity: 7 });
    const items = [known(withStock.sku, 'e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e0a1'), known(withoutStock.sku, 'e2e2e2e2-e2e2-4e2e-8e2e-e2e2e2e2e0a2')];
    const r = catchUpScraping({ supplier, requests: [request], items, now });
    const itemAfter = (sku: string) => r.updates.find((i) => i.sku === sku) ?? items.find((i) => i.sku === sku)!;
    expect(itemAfter(withStock.sku).stock_quantity).not.toBe(7);
    expect(itemAfter(withStock.sku).stock_quantity).toBeGreaterThan(0);
    expect(itemAfter(withoutStock.sku).stock_quantity).toBe(7);
  });
});
