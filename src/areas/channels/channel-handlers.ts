import type { Handlers } from '../handler-map.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { unprocessable } from '../../http/errors.js';
import { noContent, ok } from '../../http/reply.js';
import { editRecord } from '../../store/edit-record.js';
import { adoptGrant, authorizationUrl, LIFETIME_MS, randomTokens, startAuthorization, DEFAULT_MARKETPLACE_ID, type TokenSource } from '../../retailer/index.js';
import { deleteChannelCascade } from './cascade.js';
import { makeRoomForAuthorization } from './open-authorizations.js';
import { saveConnection } from './connection.js';
import { presentChannel } from './present.js';
import { retailerPort } from './retailer-instance.js';

/** Channel CRUD, connection data and the start of the authorization flow. */
export const channelResourceHandlers = {
  listChannels: ({ query }, ctx) => {
    const needle = query.q?.toLowerCase();
    const channels = ctx.store.channels
      .where('merchant_id', query.merchant_id)
      .filter((c) => (needle === undefined || c.name.toLowerCase().includes(needle)) && (query.type === undefined || c.type === query.type))
      .sort(byCreation);
    return ok(
      paginate(
        channels.map((c) => presentChannel(c, ctx.store)),
        query,
        ctx.url,
      ),
    );
  },

  createChannel: ({ body }, ctx) => {
    const channel = ctx.store.channels.insert(
      ctx.newRecord({
        merchant_id: body.merchant_id,
        name: body.name,
        type: body.type,
      }),
    );
    return ok({ data: presentChannel(channel, ctx.store) });
  },

  getChannel: ({ bound }, ctx) => ok({ data: presentChannel(bound.channel, ctx.store) }),

  updateChannel: ({ bound, body }, ctx) => {
    const current = bound.channel;
    // A GET body sent back carries the channel's own merchant_id and type; a different one would move or retype it.
    const changed = (['merchant_id', 'type'] as const).filter((field) => body[field] !== undefined && body[field] !== current[field]);
    if (changed.length > 0) unprocessable(Object.fromEntries(changed.map((field) => [field, [`The ${field} of a channel cannot be changed.`]])));
    const channel = editRecord(ctx.store.channels, current.id, { name: body.name }, ctx.clock.nowIso());
    return ok({ data: presentChannel(channel, ctx.store) });
  },

  deleteChannel: ({ bound }, ctx) => {
    deleteChannelCascade(ctx.store, bound.channel.id, ctx);
    return noContent();
  },

  storeChannelConnectionData: ({ params, body }, ctx) => {
    const now = ctx.clock.now();
    const tokens = {
      access_token: body.access_token,
      refresh_token: body.refresh_token,
      access_token_expires_at: new Date(body.access_token_expires_at ?? now.getTime() + LIFETIME_MS.access).toISOString(),
    };
    saveConnection(ctx.store, params.channel, { ...tokens, marketplace_id: body.marketplace_id ?? DEFAULT_MARKETPLACE_ID }, now.toISOString());
    // The sandbox has no real retailer account to check the tokens against: the simulated one adopts them.
    adoptGrant(retailerPort(ctx.store), params.channel, tokens, now);
    return ok({ data: presentChannel(ctx.store.channels.get(params.channel)!, ctx.store) });
  },

  getChannelAuthUrl: ({ params }, ctx) => {
    const now = ctx.clock.now();
    makeRoomForAuthorization(ctx.store, params.channel, now);
    const record = startAuthorization(retailerPort(ctx.store), {
      channelId: params.channel,
      userId: ctx.caller.id,
      redirectUri: ctx.config.retailerRedirectUri ?? `${ctx.baseUrl}/_retailer/callback`,
      now,
      tokens: stateTokens(ctx.world.tokenPrefix ?? ''),
    });
    return ok({ url: authorizationUrl(ctx.baseUrl, record.id) });
  },
} satisfies Partial<Handlers>;

/** Random secrets whose state carries the world's token prefix, so the consent pages find the workspace. */
const stateTokens =
  (prefix: string): TokenSource =>
  (kind) =>
    kind === 'state' ? prefix + randomTokens(kind) : randomTokens(kind);
