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
