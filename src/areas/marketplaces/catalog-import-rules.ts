// Catalog item imports: the outcome is decided once, at creation (deterministic rules, so the same request on the
// same catalog gives the same answer), and the status is derived from the clock, so tests can move time through it.

import type { components } from '../../contract/document/generated.js';
import type { CatalogIdentifier, CatalogItemImportRecord } from './catalog-records.js';
import { isValidIdentifier } from './identifier-codes.js';
import { identifierKey } from './records.js';

/** Seconds an import waits in the queue before processing starts. */
export const IMPORT_QUEUE_SECONDS = 5;
/** Processing time per requested identifier, so bigger imports visibly take longer. */
export const IMPORT_SECONDS_PER_IDENTIFIER = 1;

export type ImportStatus = components['schemas']['CatalogItemImportStatus'];

/** When an import created at `createdAt` with `count` identifiers starts and completes. */
export function importSchedule(createdAt: Date, count: number): { starts_at: string; completes_at: string } {
  const starts = createdAt.getTime() + IMPORT_QUEUE_SECONDS * 1000;
  return {
    starts_at: new Date(starts).toISOString(),
    completes_at: new Date(starts + count * IMPORT_SECONDS_PER_IDENTIFIER * 1000).toISOString(),
  };
}

/** The import's status as of `now`. */
export function importStatus(record: Pick<CatalogItemImportRecord, 'starts_at' | 'completes_at'>, now: Date): ImportStatus {
  const t = now.getTime();
  if (t >= Date.parse(record.completes_at)) return 'completed';
  if (t >= Date.parse(record.starts_at)) return 'processing';
  return 'queued';
}

/** What became of one requested identifier. */
export type ImportOutcome =
  | { identifier: CatalogIdentifier; outcome: 'existing'; itemId: string }
  | { identifier: CatalogIdentifier; outcome: 'new' }
  | { identifier: CatalogIdentifier; outcome: 'not_found' };

/**
 * The identifiers an import asks for, each once (same type and value), in the order first named: an import keeps
 * these, so its counts (requested = found + not found) and its processing time count each identifier once.
 */
export function distinctIdentifiers(identifiers: readonly CatalogIdentifier[]): CatalogIdentifier[] {
  const seen = new Set<string>();
  return identifiers.flatMap((identifier) => {
    const key = identifierKey(identifier);
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ type: identifier.type, value: identifier.value }];
  });
}

/**
 * Decides each identifier: invalid code -> not found; an item of the marketplace already carrying it -> that item;
 * otherwise a new item (the handler generates it, with a faker seeded from the identifier, see notes). Exact
 * duplicates in one request are answered once.
 */
export function planImport(
  identifiers: CatalogIdentifier[],
  findInMarketplace: (identifier: CatalogIdentifier) => { id: string } | undefined,
): ImportOutcome[] {
  const outcomes: ImportOutcome[] = [];
  for (const identifier of distinctIdentifiers(identifiers)) {
    if (!isValidIdentifier(identifier.type, identifier.value)) {
      outcomes.push({ identifier, outcome: 'not_found' });
      continue;
    }
    const existing = findInMarketplace(identifier);
    outcomes.push(existing ? { identifier, outcome: 'existing', itemId: existing.id } : { identifier, outcome: 'new' });
  }
  return outcomes;
}

/**
 * The import as the contract shows it: outcome hidden until the clock passes completes_at. Counts are of
 * identifiers (an import kept before repeats were dropped shows each once), so requested = found + not found even
 * when two identifiers found one item, which `found_marketplace_catalog_item_ids` lists once.
 */
export function presentCatalogItemImport(record: CatalogItemImportRecord, now: Date) {
  const status = importStatus(record, now);
  const done = status === 'completed';
  const requested = distinctIdentifiers(record.identifiers);
  return {
    id: record.id,
    merchant_id: record.merchant_id,
    marketplace_id: record.marketplace_id,
    identifiers: requested,
    status,
    requested_count: requested.length,
    found_count: done ? requested.length - record.not_found_identifiers.length : null,
    not_found_count: done ? record.not_found_identifiers.length : null,
    found_marketplace_catalog_item_ids: done ? [...record.found_marketplace_catalog_item_ids] : [],
    not_found_identifiers: done ? record.not_found_identifiers.map((i) => ({ type: i.type, value: i.value })) : [],
    started_at: status === 'queued' ? null : record.starts_at,
    completed_at: done ? record.completes_at : null,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
