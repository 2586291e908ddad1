import type { Collections } from '../collections.js';
import type { ChannelCallRecord, ChannelRecord } from './records.js';

/**
 * A channel as the API shows it: whether connection data is stored, its marketplace and the access token's
 * expiry, but never the access or refresh token themselves.
 */
export function presentChannel(channel: ChannelRecord, store: Collections) {
  const connection = store.channel_connections.get(channel.id);
  return {
    id: channel.id,
    merchant_id: channel.merchant_id,
    name: channel.name,
    type: channel.type,
    connected: connection !== undefined,
    marketplace_id: connection?.marketplace_id ?? null,
    access_token_expires_at: connection?.access_token_expires_at ?? null,
    created_at: channel.created_at,
    updated_at: channel.updated_at,
  };
}

/** A call log entry; listed field by field so nothing added to the record later can leak. */
export function presentChannelCall(call: ChannelCallRecord) {
  return {
    id: call.id,
    channel_id: call.channel_id,
    method: call.method,
    endpoint: call.endpoint,
    query: call.query,
    status: call.status,
    retailer_status: call.retailer_status,
    refreshed_token: call.refreshed_token,
    fault: call.fault ?? null,
    duration_ms: call.duration_ms,
    called_at: call.called_at,
  };
}
