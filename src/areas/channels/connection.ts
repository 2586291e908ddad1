import type { IssuedTokens } from '../../retailer/index.js';
import type { Collections } from '../collections.js';
import type { ChannelConnectionRecord } from './records.js';

/** What becomes a channel's connection data: tokens from a client, the consent flow or a refresh. */
export type ConnectionData = IssuedTokens & { marketplace_id: string };

/** Stores (or replaces) the channel's connection data and touches the channel, whose representation changes with it. */
export function saveConnection(store: Collections, channelId: string, data: ConnectionData, nowIso: string): ChannelConnectionRecord {
  const existing = store.channel_connections.get(channelId);
  const record: ChannelConnectionRecord = {
    id: channelId,
    channel_id: channelId,
    access_token: data.access_token,
    refresh_token: data.refresh_token,
    access_token_expires_at: data.access_token_expires_at,
    marketplace_id: data.marketplace_id,
    created_at: existing?.created_at ?? nowIso,
    updated_at: nowIso,
  };
  if (existing) store.channel_connections.update(channelId, record);
  else store.channel_connections.insert(record);
  if (store.channels.has(channelId)) store.channels.update(channelId, { updated_at: nowIso });
  return record;
}

/** Keeps a refreshed access token (the refresh token and marketplace stay as stored). */
export function saveRenewedTokens(store: Collections, channelId: string, renewed: IssuedTokens, nowIso: string): void {
  const existing = store.channel_connections.get(channelId);
  if (!existing) return;
  store.channel_connections.update(channelId, { ...renewed, updated_at: nowIso });
}
