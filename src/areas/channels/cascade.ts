import type { Collections } from '../collections.js';
import type { BesideStore } from '../context.js';
import { retailerPort } from './retailer-instance.js';

/**
 * Deletes a channel and everything kept for it: connection data, call log, the retailer's grant, pending
 * authorizations and listing/feed changes, and the retailer's in-memory cache and rate buckets.
 */
export function deleteChannelCascade(store: Collections, channelId: string, beside: BesideStore): void {
  store.channel_connections.remove(channelId);
  for (const call of store.channel_calls.where('channel_id', channelId)) store.channel_calls.remove(call.id);
  retailerPort(store).removeChannel(channelId);
  store.channels.remove(channelId);
  beside.retailer.forgetChannel(channelId);
}

/** The merchant cascade's part for channels: each of the merchant's channels goes as if deleted one by one. */
export function deleteMerchantChannels(store: Collections, merchantId: string, beside: BesideStore): void {
  for (const channel of store.channels.where('merchant_id', merchantId)) deleteChannelCascade(store, channel.id, beside);
}
