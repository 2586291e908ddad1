import { defineCollection } from '../../store/collection.js';
import { retailerCollections } from '../../retailer/records.js';

/** A merchant's connection to a retailer; what is connected lives in channel_connections, never here. */
export interface ChannelRecord {
  id: string;
  merchant_id: string;
  name: string;
  type: 'retailer';
  created_at: string;
  updated_at: string;
}

/**
 * The channel's connection data (id = channel id). Holds the secrets, so it is kept apart from the channel and
 * only presence, marketplace and expiry ever reach a response.
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

/** One relayed call of the channel's call log: what was asked and answered, never tokens or bodies. */
export interface ChannelCallRecord {
  id: string;
  channel_id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  endpoint: string;
  query: string;
  status: number;
  retailer_status: number | null;
  refreshed_token: boolean;
  /** The retailer fault the call asked for (`Prefer: retailer-fault`); absent on calls logged before it existed. */
  fault?: 'throttle' | 'timeout' | 'error' | null;
  duration_ms: number;
  called_at: string;
}

/** The channels area's collections, plus the simulated retailer's, which exist only for channels. */
export const channelCollections = {
  channels: defineCollection<ChannelRecord>({ indexes: ['merchant_id'] }),
  channel_connections: defineCollection<ChannelConnectionRecord>(),
  channel_calls: defineCollection<ChannelCallRecord>({ indexes: ['channel_id'] }),
  ...retailerCollections,
};
