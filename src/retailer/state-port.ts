import type { RetailerAuthorizationRecord, RetailerGrantRecord, RetailerStateRecord } from './record-types.js';

/**
 * Where the retailer keeps what it must remember. The pure retailer logic talks only to this, so it is
 * unit-tested with the memory port and wired to the store with the store port.
 */
export interface RetailerStatePort {
  getState(channelId: string): RetailerStateRecord | undefined;
  putState(record: RetailerStateRecord): void;
  getGrant(channelId: string): RetailerGrantRecord | undefined;
  putGrant(record: RetailerGrantRecord): void;
  removeGrant(channelId: string): void;
  getAuthorization(state: string): RetailerAuthorizationRecord | undefined;
  putAuthorization(record: RetailerAuthorizationRecord): void;
  /** Deletes everything the retailer holds for the channel (channel deletion cascade). */
  removeChannel(channelId: string): void;
}
