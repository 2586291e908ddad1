// The simulated catalogue a supplier's scraping attempts find. Derived from the supplier id alone (not its name or
// currency, which PUT may change), so every attempt of every request of one supplier sees the same catalogue.
import type { IdentifierType } from '../record-types.js';
import { hashFraction, hashInt } from './deterministic.js';

/** One item of a supplier's simulated catalogue, before an attempt applies its price drift. */
export interface CatalogueEntry {
  sku: string;
  description: string;
  identifiers: { type: IdentifierType; value: string }[];
  /** Base unit costs per minimum order quantity, ascending; an attempt drifts them by a few percent. */
  tiers: { minimum_order_quantity: number; base_value: number }[];
  /** Units in stock as the supplier publishes them (an attempt sees it move a little); null when it publishes none. */
  stock_units: number | null;
}

const ADJECTIVES = ['Compact', 'Heavy-duty', 'Ultralight', 'Classic', 'Insulated', 'Waterproof', 'Foldable', 'Premium', 'Everyday', 'Rugged'];
const MATERIALS = ['aluminium', 'stainless steel', 'bamboo', 'ripstop nylon', 'cotton', 'silicone', 'oak', 'recycled plastic', 'wool', 'carbon fibre'];
const NOUNS = [
  'water bottle',
  'camping mug',
  'tent stake set',
  'dry bag',
  'headlamp',
  'cutting board',
  'lunch box',
  'trekking pole',
  'hammock',
  'cooler bag',
  'fire starter',
  'cook set',
];
const QUANTITY_LADDER = [1, 6, 12, 24, 48, 100, 250];
const SKU_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
/** Share of entries whose stock the supplier does not publish (their items' stock_quantity stays unknown). */
const UNPUBLISHED_STOCK_RATE = 0.2;
/** Share of published stock levels that are nearly sold out (0..24 units), so low-stock risk factors show up. */
const SCARCE_STOCK_RATE = 0.15;

/** The entry's published stock: null, nearly sold out, or log-uniform 25..5,000 units like most wholesale lines. */
function baseStock(supplierId: string, index: number): number | null {
  if (hashFraction('stock-published', supplierId, index) < UNPUBLISHED_STOCK_RATE) return null;
  if (hashFraction('stock-scarce', supplierId, index) < SCARCE_STOCK_RATE) return hashInt(0, 24, 'stock-scarce-units', supplierId, index);
  return Math.round(25 * 200 ** hashFraction('stock-units', supplierId, index));
}

/** How many items the supplier's catalogue holds (30..45: enough for the demo's ~30 seeded items plus new finds). */
export function catalogueSize(supplierId: string): number {
  return hashInt(30, 45, 'catalogue-size', supplierId);
}

/** The supplier's SKU prefix, three letters; seeded supplier items use it so scraping later matches them by SKU. */
export function skuPrefix(supplierId: string): string {
  let prefix = '';
  for (let i = 0; i < 3; i++) prefix += SKU_LETTERS[hashInt(0, SKU_LETTERS.length - 1, 'sku-prefix', supplierId, i)];
  return prefix;
}

/** Appends the GS1 check digit (UPC-A, EAN-13, GTIN-14 share the mod-10 weighting from the right). */
export function withGs1CheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const digit = Number(body[body.length - 1 - i]);
    sum += i % 2 === 0 ? digit * 3 : digit;
  }
  return body + String((10 - (sum % 10)) % 10);
}

/** The catalogue entry at `index` (0-based). */
export function catalogueEntry(supplierId: string, index: number): CatalogueEntry {
  const pick = <T>(list: readonly T[], salt: string): T => list[hashInt(0, list.length - 1, salt, supplierId, index)]!;
  let upcBody = '';
  for (let i = 0; i < 11; i++) upcBody += String(hashInt(0, 9, 'upc', supplierId, index, i));
  const upc = withGs1CheckDigit(upcBody);
  const tierCount = hashInt(2, 4, 'tier-count', supplierId, index);
  const start = hashInt(0, QUANTITY_LADDER.length - tierCount, 'tier-start', supplierId, index);
  const unit = Math.round(hashInt(200, 15000, 'unit-cost', supplierId, index)) / 100;
  const tiers = QUANTITY_LADDER.slice(start, start + tierCount).map((quantity, step) => ({
    minimum_order_quantity: quantity,
    // Each larger tier is 3-8% cheaper than the one before, like a real volume discount.
    base_value: round2(unit * (1 - step * (0.03 + 0.05 * hashFraction('discount', supplierId, index)))),
  }));
  return {
    sku: `${skuPrefix(supplierId)}-${String(index + 1).padStart(4, '0')}`,
    description: `${pick(ADJECTIVES, 'adj')} ${pick(MATERIALS, 'mat')} ${pick(NOUNS, 'noun')}`,
    identifiers: [
      { type: 'UPC', value: upc },
      { type: 'EAN', value: `0${upc}` },
    ],
    tiers,
    stock_units: baseStock(supplierId, index),
  };
}

// Building a catalogue costs ~1000 hashes and every attempt's found count needs it, so keep the recent ones.
// Entries are frozen because they are shared between callers.
const CACHE_LIMIT = 256;
const cache = new Map<string, readonly CatalogueEntry[]>();

/** The whole catalogue, in SKU order (shared and frozen: copy before changing). */
export function supplierCatalogue(supplierId: string): readonly CatalogueEntry[] {
  let catalogue = cache.get(supplierId);
  if (!catalogue) {
    catalogue = Object.freeze(Array.from({ length: catalogueSize(supplierId) }, (_, i) => deepFreeze(catalogueEntry(supplierId, i))));
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(supplierId, catalogue);
  }
  return catalogue;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Share of the catalogue an attempt finds: pages time out or are paginated, so a run rarely sees everything. */
const FIND_RATE = 0.85;

/** One catalogue entry as an attempt found it, with that attempt's costs and stock (null when not published). */
export type FoundEntry = {
  entry: CatalogueEntry;
  tiers: { minimum_order_quantity: number; value: number }[];
  stock_units: number | null;
};

// Every list of attempts shows each finished attempt's found count, and catch-up reads the same finds right after
// computing them: counts are kept (a number per attempt), the finds themselves only for the latest attempts.
const FOUND_CACHE_LIMIT = 512;
const COUNT_CACHE_LIMIT = 100_000;
const foundCache = new Map<string, readonly FoundEntry[]>();
const countCache = new Map<string, number>();

function remember<V>(cache: Map<string, V>, limit: number, key: string, value: V): V {
  if (cache.size >= limit) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/**
 * The catalogue entries one attempt finds, with that attempt's costs (±5% drift around the base, never below 0) and
 * stock (±30% around the published level: sales and restocks between visits). Shared: do not change.
 */
export function entriesFoundBy(supplierId: string, attemptId: string): readonly FoundEntry[] {
  const key = `${supplierId}|${attemptId}`;
  const found = foundCache.get(key) ?? remember(foundCache, FOUND_CACHE_LIMIT, key, computeFound(supplierId, attemptId));
  if (!countCache.has(key)) remember(countCache, COUNT_CACHE_LIMIT, key, found.length);
  return found;
}

/**
 * How many entries the attempt finds (its found_items_count once finished), without keeping the finds: only
 * whether each entry is found is read, not the costs and stock the attempt saw, which take twice as many hashes.
 */
export function foundItemsCount(supplierId: string, attemptId: string): number {
  const key = `${supplierId}|${attemptId}`;
  const known = countCache.get(key) ?? foundCache.get(key)?.length;
  if (known !== undefined) return known;
  let count = 0;
  for (const entry of supplierCatalogue(supplierId)) if (isFound(attemptId, entry)) count++;
  return remember(countCache, COUNT_CACHE_LIMIT, key, count);
}

/** Whether the attempt found the entry (pages time out or are paginated: not every entry is seen). */
const isFound = (attemptId: string, entry: CatalogueEntry): boolean => hashFraction('found', attemptId, entry.sku) < FIND_RATE;

function computeFound(supplierId: string, attemptId: string): FoundEntry[] {
  return supplierCatalogue(supplierId).flatMap((entry) => foundEntry(attemptId, entry) ?? []);
}

/**
 * The one entry as the attempt found it, or null when the attempt missed it: what entriesFoundBy lists, one entry
 * at a time, for catch-up, which reads only the attempts that decide an item's state.
 */
export function foundEntry(attemptId: string, entry: CatalogueEntry): FoundEntry | null {
  if (!isFound(attemptId, entry)) return null;
  const drift = 1 + (hashFraction('drift', attemptId, entry.sku) - 0.5) * 0.1;
  return {
    entry,
    tiers: entry.tiers.map((t) => ({
      minimum_order_quantity: t.minimum_order_quantity,
      value: Math.max(0, round2(t.base_value * drift)),
    })),
    stock_units: entry.stock_units === null ? null : Math.round(entry.stock_units * (0.7 + 0.6 * hashFraction('stock-drift', attemptId, entry.sku))),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
