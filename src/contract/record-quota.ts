import { listOperations, type ContractDocument } from './document/load-contract.js';

/** The extension an operation declares itself with when it adds records at a client's request. */
export const RECORD_QUOTA_EXTENSION = 'x-sandbox-record-quota';

/**
 * The operations a workspace's record quota applies to: those the contract marks as adding records at the client's
 * request (and documents the quota's 422 for). Work a read does on its own (a scraping catch-up) is never refused.
 */
export const recordQuotaOperations = (doc: ContractDocument): Set<string> =>
  new Set(
    listOperations(doc)
      .filter((op) => op.operation[RECORD_QUOTA_EXTENSION] === true)
      .map((op) => op.operationId),
  );
