import type { Handlers } from '../../contract/handler-map.js';
import { paginate } from '../../http/pagination.js';
import { noContent, ok } from '../../http/reply.js';
import { revokeGrant } from '../../retailer/index.js';
import { existingChannel } from './lookup.js';
import { presentChannelCall } from './present.js';
import { retailerPort } from './retailer-instance.js';

/** The sandbox control plane for channels: the call log and a simulated revocation at the retailer. */
export const channelControlHandlers = {
  listChannelCalls: ({ params, query }, ctx) => {
    const channel = existingChannel(ctx, params.channel);
    const newestFirst = ctx.store.channel_calls.where('channel_id', channel.id).reverse();
    return ok(paginate(newestFirst.map(presentChannelCall), query, ctx.url));
  },

  revokeChannelAuthorization: ({ params }, ctx) => {
    const channel = existingChannel(ctx, params.channel);
    revokeGrant(retailerPort(ctx.store), channel.id);
    return noContent();
  },
} satisfies Partial<Handlers>;
