/** A per-workspace quota a change would pass. The HTTP layer names it in the answer (422 records, 413 upload bytes). */
export class QuotaExceeded extends Error {
  constructor(
    readonly quota: 'records' | 'upload bytes',
    /** The quota: records a workspace may add, or bytes its uploads may hold. */
    readonly limit: number,
  ) {
    super(`the workspace's ${quota} quota (${limit}) would be passed`);
    this.name = 'QuotaExceeded';
  }
}

/**
 * Whether adding `adding` records to a view holding `held` of its own passes its record quota `max`: the one rule
 * the store keeps for a transaction and a bundle's load keeps for the records it adds. Adding none never does.
 */
export function passesRecordQuota(held: number, adding: number, max: number): boolean {
  return adding > 0 && held + adding > max;
}
