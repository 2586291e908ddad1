import type { Handlers } from '../handler-map.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, noContent, ok } from '../../http/reply.js';
import { editRecord } from '../../store/edit-record.js';
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
      ctx.newRecord(
        {
          merchant_id: merchant.id,
          user_id: ctx.caller.id,
          role: 'owner',
        },
        now,
      ),
    );
    return created({ data: merchant });
  },

  getMerchant: ({ bound }) => ok({ data: bound.merchant }),

  updateMerchant: ({ bound, body }, ctx) => {
    editRecord(ctx.store.merchants, bound.merchant.id, { name: body.name }, ctx.clock.nowIso());
    return noContent();
  },

  deleteMerchant: ({ bound }, ctx) => {
    // Membership was checked before validation; deleting is an owner's alone.
    ctx.access.owner(bound.merchant.id);
    deleteMerchantCascade(ctx.store, bound.merchant.id, ctx);
    return noContent();
  },
} satisfies Partial<Handlers>;
