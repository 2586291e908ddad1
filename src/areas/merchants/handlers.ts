import type { Handlers } from '../../contract/handler-map.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, noContent, ok } from '../../http/reply.js';
import { deleteMerchantCascade } from './cascade.js';

export const merchantHandlers = {
  listMerchants: ({ query }, ctx) => {
    const merchants = ctx.store.memberships
      .where('user_id', ctx.caller.id)
      .map((m) => ctx.store.merchants.get(m.merchant_id))
      .filter((m) => m !== undefined)
      .sort(byCreation);
    return ok(paginate(merchants, query, ctx.url));
  },

  createMerchant: ({ body }, ctx) => {
    const now = ctx.clock.nowIso();
    const merchant = ctx.store.merchants.insert(ctx.newRecord({ name: body.name }, now));
    ctx.store.memberships.insert(
      ctx.newRecord({
        merchant_id: merchant.id,
        user_id: ctx.caller.id,
        role: 'owner',
      }, now),
    );
    return created({ data: merchant });
  },

  getMerchant: ({ params }, ctx) => ok({ data: ctx.access.member(params.merchant) }),

  updateMerchant: ({ params, body }, ctx) => {
    ctx.access.member(params.merchant);
    ctx.store.merchants.update(params.merchant, { name: body.name, updated_at: ctx.clock.nowIso() });
    return noContent();
  },

  deleteMerchant: ({ params }, ctx) => {
    ctx.access.owner(params.merchant);
    deleteMerchantCascade(ctx.store, params.merchant);
    return noContent();
  },
} satisfies Partial<Handlers>;
