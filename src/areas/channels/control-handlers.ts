import type { Handlers } from '../handler-map.js';
import { paginate } from '../../http/pagination.js';
import { noContent, ok } from '../../http/reply.js';
import { revokeGrant } from '../../retailer/index.js';
import { presentChannelCall } from './present.js';
import { retailerPort } from './retailer-instance.js';

/** The sandbox control plane for channels: the call log and a simulated revocation at the retailer. */
export const channelControlHandlers = {
  listChannelCalls: ({ bound, query }, ctx) => {
    const newestFirst = ctx.store.channel_calls.where('channel_id', bound.channel.id).reverse();
    return ok(paginate(newestFirst.map(presentChannelCall), query, ctx.url));
  },

  revokeChannelAuthorization: ({ bound }, ctx) => {
    revokeGrant(retailerPort(ctx.store), bound.channel.id);
    return noContent();
  },
} satisfies Partial<Handlers>;
