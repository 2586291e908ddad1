import { defineCollection } from '../store/collection.js';
import type { RetailerAuthorizationRecord, RetailerGrantRecord, RetailerStateRecord } from './record-types.js';

export type * from './record-types.js';

/**
 * The simulated retailer's collections (the channels area adds `...retailerCollections` to its own). All three are
 * deleted with the channel. retailer_grants and retailer_authorizations hold secrets: redact them in journals.
 */
export const retailerCollections = {
  retailer_states: defineCollection<RetailerStateRecord>(),
  retailer_grants: defineCollection<RetailerGrantRecord>(),
  retailer_authorizations: defineCollection<RetailerAuthorizationRecord>({ indexes: ['channel_id'] }),
};
