// Pure seed generators for sourcing: records from a seeded Faker and a fixed reference date, no store access.
// Seeded supplier items are drawn from each supplier's simulated catalogue, so later scraping attempts match them
// by SKU and refresh them instead of duplicating them.
import type { Faker } from '@faker-js/faker';
import type { ScrapingRequestRecord, SupplierItemIdentifierRecord, SupplierItemRecord, SupplierRecord } from './record-types.js';
import { scheduleAttempts } from './rules/scraping-schedule.js';
import { supplierCatalogue } from './rules/supplier-catalogue.js';

const DAY = 86_400_000;
const CURRENCIES = ['USD', 'EUR', 'GBP', 'CNY', 'CAD'] as const;
const iso = (ms: number) => new Date(ms).toISOString();

/** `n` suppliers of a merchant created 200-300 days before refDate; the first deals in USD, the others vary. */
export function generateSuppliers(faker: Faker, merchantId: string, n: number, refDate: Date, pinnedIds: readonly string[] = []): SupplierRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const at = iso(faker.date.between({ from: refDate.getTime() - 300 * DAY, to: refDate.getTime() - 200 * DAY }).getTime());
    return {
      id: pinnedIds[i] ?? faker.string.uuid(),
      merchant_id: merchantId,
      name: `${faker.company.name()} ${faker.helpers.arrayElement(['Wholesale', 'Trading', 'Supply', 'Distribution'])}`,
      default_currency: i === 0 ? 'USD' : faker.helpers.arrayElement(CURRENCIES),
      created_at: at,
      updated_at: at,
    };
  });
}

/** One supplier's seeded items and their identifiers. */
export interface SupplierItemSeed {
  supplier_items: SupplierItemRecord[];
  supplier_item_identifiers: SupplierItemIdentifierRecord[];
}

/**
 * The first `n` catalogue entries of a supplier as supplier items (2-4 tiers each, costs within ±3% of the
 * catalogue base), about 60% linked to one of `productIds`, 70% carrying the catalogue UPC, with the stock the
 * catalogue publishes. `pinned` fixes the first item's id, first tier's id and stock.
 */
export function generateSupplierItems(
  faker: Faker,
  args: {
    supplier: SupplierRecord;
    productIds: readonly string[];
    n: number;
    refDate: Date;
    pinned?: { itemId?: string; firstCostId?: string; stockQuantity?: number | null };
  },
): SupplierItemSeed {
  const { supplier, productIds, refDate } = args;
  const seed: SupplierItemSeed = { supplier_items: [], supplier_item_identifiers: [] };
  // The catalogue its scraping attempts read later: built once per supplier, shared (read only here).
  const catalogue = supplierCatalogue(supplier.id);
  const count = Math.min(args.n, catalogue.length);
  for (let i = 0; i < count; i++) {
    const entry = catalogue[i]!;
    const id = i === 0 && args.pinned?.itemId ? args.pinned.itemId : faker.string.uuid();
    const created = faker.date.between({ from: Date.parse(supplier.created_at), to: refDate.getTime() - 7 * DAY }).getTime();
    const costs = entry.tiers.map((t, k) => ({
      id: i === 0 && k === 0 && args.pinned?.firstCostId ? args.pinned.firstCostId : faker.string.uuid(),
      minimum_order_quantity: t.minimum_order_quantity,
      cost: {
        value: Math.round(t.base_value * faker.number.float({ min: 0.97, max: 1.03 }) * 100) / 100,
        currency: supplier.default_currency,
      },
    }));
    const linked = productIds.length > 0 && faker.datatype.boolean(0.6);
    seed.supplier_items.push({
      id,
      merchant_id: supplier.merchant_id,
      supplier_id: supplier.id,
      sku: entry.sku,
      description: entry.description,
      product_id: linked ? faker.helpers.arrayElement(productIds) : null,
      costs,
      // Hash-derived by the catalogue, not drawn from the faker, so the faker stream (every later seeded value) is unchanged.
      stock_quantity: i === 0 && args.pinned?.stockQuantity !== undefined ? args.pinned.stockQuantity : entry.stock_units,
      created_at: iso(created),
      updated_at: iso(created),
    });
    if (faker.datatype.boolean(0.7)) {
      const upc = entry.identifiers.find((x) => x.type === 'UPC')!;
      seed.supplier_item_identifiers.push({
        id: faker.string.uuid(),
        supplier_item_id: id,
        type: upc.type,
        value: upc.value,
        created_at: iso(created),
        updated_at: iso(created),
      });
    }
  }
  return seed;
}

/**
 * A supplier's scraping history: `rich` gives a daily request running across refDate, a long weekly one and a
 * finished one-off; otherwise one finished one-off. `applied_attempts` counts the attempts ended by refDate: the
 * seed treats their finds as already reflected in the seeded items, so catch-up starts after refDate.
 */
export function generateScrapingRequests(
  faker: Faker,
  args: { supplier: SupplierRecord; refDate: Date; rich: boolean; pinnedId?: string },
): ScrapingRequestRecord[] {
  const { supplier, refDate } = args;
  const host = `${faker.internet.domainWord()}.example.com`;
  const at0600 = (daysBefore: number) => {
    const d = new Date(refDate.getTime() - daysBefore * DAY);
    d.setUTCHours(6, 0, 0, 0);
    return d.getTime();
  };
  const plans: { frequency: ScrapingRequestRecord['frequency']; start: number; max: number; path: string }[] = args.rich
    ? [
        { frequency: 'daily', start: at0600(20), max: 30, path: '/wholesale/price-list' },
        { frequency: 'weekly', start: at0600(63), max: 100, path: '/catalogue/new-arrivals' },
        { frequency: 'once', start: at0600(120), max: 1, path: '/catalogue' },
      ]
    : [{ frequency: 'once', start: at0600(45), max: 1, path: '/catalogue' }];
  return plans.map((plan, i) => {
    const created = plan.start - faker.number.int({ min: 1, max: 48 }) * 3_600_000;
    const record: ScrapingRequestRecord = {
      id: i === 0 && args.pinnedId ? args.pinnedId : faker.string.uuid(),
      merchant_id: supplier.merchant_id,
      supplier_id: supplier.id,
      source_url: `https://${host}${plan.path}`,
      frequency: plan.frequency,
      starts_at: iso(plan.start),
      max_attempts: plan.max,
      applied_attempts: 0,
      created_at: iso(created),
      updated_at: iso(created),
    };
    record.applied_attempts = scheduleAttempts(record, refDate).filter((a) => a.finished_at !== null).length;
    return record;
  });
}
