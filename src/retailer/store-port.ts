import type { RetailerAuthorizationRecord, RetailerGrantRecord, RetailerStateRecord } from './record-types.js';
import type { RetailerStatePort } from './state-port.js';

/** The part of the store's Collection the port needs; structural, so this file does not depend on the core. */
interface CollectionLike<T extends { id: string }> {
  get(id: string): T | undefined;
  has(id: string): boolean;
  insert(record: T): T;
  update(id: string, patch: Partial<T>): T;
  remove(id: string): T | undefined;
  where(field: 'channel_id', value: string): T[];
}

/** The retailer collections as the store exposes them (see records.ts). */
export interface RetailerCollections {
  retailer_states: CollectionLike<RetailerStateRecord>;
  retailer_grants: CollectionLike<RetailerGrantRecord>;
  retailer_authorizations: CollectionLike<RetailerAuthorizationRecord>;
}

function upsert<T extends { id: string }>(collection: CollectionLike<T>, record: T): void {
  if (collection.has(record.id)) collection.update(record.id, record);
  else collection.insert(record);
}

/** A port over the store's collections, so retailer writes join the request's transaction and persistence. */
export function createStorePort(store: RetailerCollections): RetailerStatePort {
  return {
    getState: (id) => store.retailer_states.get(id),
    putState: (r) => upsert(store.retailer_states, r),
    getGrant: (id) => store.retailer_grants.get(id),
    putGrant: (r) => upsert(store.retailer_grants, r),
    removeGrant: (id) => void store.retailer_grants.remove(id),
    getAuthorization: (state) => store.retailer_authorizations.get(state),
    putAuthorization: (r) => upsert(store.retailer_authorizations, r),
    removeChannel(id) {
      store.retailer_states.remove(id);
      store.retailer_grants.remove(id);
      for (const r of store.retailer_authorizations.where('channel_id', id)) store.retailer_authorizations.remove(r.id);
    },
  };
}
