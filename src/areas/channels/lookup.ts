import type { Ctx } from '../../http/context.js';
import { notFound } from '../../http/errors.js';
import type { ChannelRecord } from './records.js';

/** The channel, when it exists (404) and the caller is a member of its merchant (403). */
export function memberChannel(ctx: Ctx, channelId: string): ChannelRecord {
  return ctx.access.owned(ctx.store.channels.get(channelId), 'channel');
}

/** The channel for the control plane, which has no caller: existence is the only check. */
export function existingChannel(ctx: Ctx, channelId: string): ChannelRecord {
  return ctx.store.channels.get(channelId) ?? notFound('channel');
}
