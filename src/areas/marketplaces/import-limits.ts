// Imports are processed lazily by whichever request next reads the catalog or the imports, and processing one
// identifier generates a listing. What one read may have to process is therefore whatever was still pending when the
// clock moved; these caps bound it by structure: pending imports per merchant, and pending identifiers over the
// whole world, since a caller may create many merchants. The createCatalogItemImport handler asks them before it
// adds an import; a loaded workspace bundle's world is held to them (and to the schedule an import's creation
// gives it) before it is served.

import type { Collections } from '../collections.js';
import { failOn } from '../../http/reply.js';
import type { FieldErrors } from '../../http/errors.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { distinctIdentifiers, importSchedule } from './catalog-import-rules.js';

/** Imports of one merchant that may be queued or processing at once. */
export const MAX_PENDING_IMPORTS_PER_MERCHANT = 3;
/** Identifiers of all imports of the world (every merchant) that may be queued or processing at once. */
export const MAX_PENDING_IMPORT_IDENTIFIERS = 300;

/** What the world's pending imports hold: per merchant, and identifiers in all. */
function pendingImports(store: Collections): { perMerchant: Map<string, number>; identifiers: number } {
  const perMerchant = new Map<string, number>();
  let identifiers = 0;
  for (const record of store.catalog_item_imports.where('processed', false)) {
    perMerchant.set(record.merchant_id, (perMerchant.get(record.merchant_id) ?? 0) + 1);
    identifiers += record.identifiers.length;
  }
  return { perMerchant, identifiers };
}

/** The caps a merchant's pending imports pass once it has `adding` more of `addingIdentifiers` identifiers. */
function pendingImportCapErrors(held: number, identifiers: number, adding: number, addingIdentifiers: number): FieldErrors {
  const errors: FieldErrors = {};
  if (held + adding > MAX_PENDING_IMPORTS_PER_MERCHANT) {
    errors.merchant_id = [
      `The merchant already has ${held} catalog item imports queued or processing, ${held > MAX_PENDING_IMPORTS_PER_MERCHANT ? `more than the ${MAX_PENDING_IMPORTS_PER_MERCHANT}` : 'the most'} a merchant may have; create more once one completes.`,
    ];
  }
  if (identifiers + addingIdentifiers > MAX_PENDING_IMPORT_IDENTIFIERS) {
    errors.identifiers = [
      `The workspace's queued or processing catalog item imports already ask for ${identifiers} identifiers and may ask for at most ${MAX_PENDING_IMPORT_IDENTIFIERS} together; create this import once others complete.`,
    ];
  }
  return errors;
}

/**
 * Answers 422 when creating an import of `count` identifiers for the merchant would pass a cap. Call it after
 * processing the imports due as of now, so "pending" is exactly "queued or processing": then no read ever has more
 * than MAX_PENDING_IMPORT_IDENTIFIERS identifiers to process, however far the clock moves.
 */
export function refuseOverPendingImportCaps(store: Collections, merchantId: string, count: number): void {
  const pending = pendingImports(store);
  failOn(pendingImportCapErrors(pending.perMerchant.get(merchantId) ?? 0, pending.identifiers, 1, count));
}

/** The import rules the world breaks: the pending caps, each import's schedule and outcome as its creation made them. */
export function importRuleBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  const pending = pendingImports(store);
  // A cap is counted once over the world: each merchant's imports, then the identifiers of all.
  for (const [merchant, held] of pending.perMerchant) {
    for (const message of pendingImportCapErrors(held, 0, 0, 0).merchant_id ?? []) {
      breaches.push({ collection: 'catalog_item_imports', field: 'merchant_id', message: `Merchant ${merchant}: ${message}` });
    }
  }
  for (const message of pendingImportCapErrors(0, pending.identifiers, 0, 0).identifiers ?? []) {
    breaches.push({ collection: 'catalog_item_imports', field: 'identifiers', message });
  }
  for (const record of store.catalog_item_imports.all()) {
    const schedule = importSchedule(new Date(record.created_at), record.identifiers.length);
    if (record.starts_at !== schedule.starts_at || record.completes_at !== schedule.completes_at) {
      breaches.push({
        collection: 'catalog_item_imports',
        id: record.id,
        field: 'completes_at',
        message: `Import ${record.id} created at ${record.created_at} with ${record.identifiers.length} identifiers starts at ${schedule.starts_at} and completes at ${schedule.completes_at}.`,
      });
    }
    if (distinctIdentifiers(record.identifiers).length !== record.identifiers.length) {
      breaches.push({
        collection: 'catalog_item_imports',
        id: record.id,
        field: 'identifiers',
        message: `Import ${record.id} names an identifier twice; an import keeps each identifier once.`,
      });
    }
    if (record.found_marketplace_catalog_item_ids.length + record.not_found_identifiers.length > record.identifiers.length) {
      breaches.push({
        collection: 'catalog_item_imports',
        id: record.id,
        field: 'found_marketplace_catalog_item_ids',
        message: `Import ${record.id} has more outcomes than its ${record.identifiers.length} identifiers.`,
      });
    }
  }
  return breaches;
}
