import type { RetailerAuthorizationRecord, RetailerGrantRecord, RetailerStateRecord } from '../../src/retailer/record-types.js';
import type { RetailerStatePort } from '../../src/retailer/state-port.js';

/** A retailer state port over plain Maps, for the tests that run the retailer without a world's store. */
export function createMemoryPort(): RetailerStatePort {
  const states = new Map<string, RetailerStateRecord>();
  const grants = new Map<string, RetailerGrantRecord>();
  const authorizations = new Map<string, RetailerAuthorizationRecord>();
  return {
    getState: (id) => states.get(id),
    putState: (r) => void states.set(r.id, r),
    getGrant: (id) => grants.get(id),
    putGrant: (r) => void grants.set(r.id, r),
    removeGrant: (id) => void grants.delete(id),
    getAuthorization: (state) => authorizations.get(state),
    putAuthorization: (r) => void authorizations.set(r.id, r),
    removeChannel(id) {
      states.delete(id);
      grants.delete(id);
      for (const [key, r] of authorizations) if (r.channel_id === id) authorizations.delete(key);
    },
  };
}
