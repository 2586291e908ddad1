// Imports are processed lazily by whichever request next reads the catalog or the imports, and processing one
// identifier generates a listing. What one read may have to process is therefore whatever was still pending when the
// clock moved; these caps bound it by structure: pending imports per merchant, and pending identifiers over the
// whole world, since a caller may create many merchants.

import type { Collections } from '../collections.js';
import { unprocessable } from '../../http/errors.js';

/** Imports of one merchant that may be queued or processing at once. */
export const MAX_PENDING_IMPORTS_PER_MERCHANT = 3;
/** Identifiers of all imports of the world (every merchant) that may be queued or processing at once. */
export const MAX_PENDING_IMPORT_IDENTIFIERS = 300;

/**
 * Answers 422 when creating an import of `count` identifiers for the merchant would pass a cap. Call it after
 * processing the imports due as of now, so "pending" is exactly "queued or processing": then no read ever has more
 * than MAX_PENDING_IMPORT_IDENTIFIERS identifiers to process, however far the clock moves.
 */
export function refuseOverPendingImportCaps(store: Collections, merchantId: string, count: number): void {
  const pending = store.catalog_item_imports.where('processed', false);
  if (pending.filter((record) => record.merchant_id === merchantId).length >= MAX_PENDING_IMPORTS_PER_MERCHANT) {
    unprocessable({
      merchant_id: [
        `The merchant already has ${MAX_PENDING_IMPORTS_PER_MERCHANT} catalog item imports queued or processing, the most a merchant may have; create more once one completes.`,
      ],
    });
  }
  const identifiers = pending.reduce((sum, record) => sum + record.identifiers.length, 0);
  if (identifiers + count > MAX_PENDING_IMPORT_IDENTIFIERS) {
    unprocessable({
      identifiers: [
        `The workspace's queued or processing catalog item imports already ask for ${identifiers} identifiers and may ask for at most ${MAX_PENDING_IMPORT_IDENTIFIERS} together; create this import once others complete.`,
      ],
    });
  }
}
