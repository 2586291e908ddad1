import type { components } from '../../contract/document/generated.js';
import { defineCollection } from '../../store/collection.js';
import { retailerCollections } from '../../retailer/records.js';

type Schemas = components['schemas'];

/**
 * A merchant's connection to a retailer; what is connected lives in channel_connections, never here, and the
 * presenter derives `connected`, `marketplace_id` and `access_token_expires_at` from it.
 */
export type ChannelRecord = Omit<Schemas['Channel'], 'connected' | 'marketplace_id' | 'access_token_expires_at'>;

/**
 * The channel's connection data (id = channel id). Holds the secrets, so it is kept apart from the channel and
 * only presence, marketplace and expiry ever reach a response; no schema has its shape (ChannelConnectionData is
 * the request body, where expiry and marketplace are optional).
 */
export interface ChannelConnectionRecord {
  id: string;
  channel_id: string;
  access_token: string;
  refresh_token: string;
  access_token_expires_at: string;
  marketplace_id: string;
  created_at: string;
  updated_at: string;
}

/**
 * One relayed call of the channel's call log: what was asked and answered, never tokens or bodies. `fault` (the
 * retailer fault the call asked for, `Prefer: retailer-fault`) is absent on calls logged before it existed.
 */
export type ChannelCallRecord = Omit<Schemas['ChannelCall'], 'fault'> & Partial<Pick<Schemas['ChannelCall'], 'fault'>>;

/** The channels area's collections, plus the simulated retailer's, which exist only for channels. */
export const channelCollections = {
  channels: defineCollection<ChannelRecord>({ indexes: ['merchant_id'] }),
  channel_connections: defineCollection<ChannelConnectionRecord>(),
  channel_calls: defineCollection<ChannelCallRecord>({ indexes: ['channel_id'] }),
  ...retailerCollections,
};
