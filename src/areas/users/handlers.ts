import type { Handlers } from '../handler-map.js';
import { notFound, unprocessable } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, noContent, ok } from '../../http/reply.js';
import { editRecord } from '../../store/edit-record.js';
import { presentMembership, presentUser } from './present.js';

export const userHandlers = {
  getCurrentUser: (_input, ctx) => ok({ data: presentUser(ctx.caller) }),

  updateCurrentUser: ({ body }, ctx) => {
    const email = body.email?.toLowerCase();
    if (email !== undefined && ctx.store.users.where('email', email).some((u) => u.id !== ctx.caller.id)) {
      unprocessable({ email: ['The email has already been taken.'] });
    }
    const user = editRecord(
      ctx.store.users,
      ctx.caller.id,
      { ...(body.name !== undefined && { name: body.name }), ...(email !== undefined && { email }) },
      ctx.clock.nowIso(),
    );
    return ok({ data: presentUser(user) });
  },

  listMerchantMemberships: ({ query }, ctx) => {
    const memberships = ctx.store.memberships.where('merchant_id', query.merchant_id).sort(byCreation);
    const page = paginate(memberships, query, ctx.url);
    return ok({ ...page, data: page.data.map((m) => presentMembership(m, ctx.store)) });
  },

  inviteMerchantMember: ({ body }, ctx) => {
    const user = ctx.store.users.where('email', body.email.toLowerCase())[0];
    if (!user) unprocessable({ email: ['No user has this email. Create one with POST /_sandbox/users first.'] });
    if (ctx.store.memberships.where('merchant_id', body.merchant_id).some((m) => m.user_id === user.id)) {
      unprocessable({ email: ['This user is already a member of the merchant.'] });
    }
    const membership = ctx.store.memberships.insert(
      ctx.newRecord({
        merchant_id: body.merchant_id,
        user_id: user.id,
        role: 'member',
      }),
    );
    return created({ data: presentMembership(membership, ctx.store) });
  },

  removeMerchantMember: ({ body }, ctx) => {
    const memberships = ctx.store.memberships.where('merchant_id', body.merchant_id);
    const target = memberships.find((m) => m.user_id === body.user_id) ?? notFound('membership');
    const callerIsOwner = ctx.access.membership(body.merchant_id)?.role === 'owner';
    if (!callerIsOwner && body.user_id !== ctx.caller.id) ctx.access.owner(body.merchant_id);
    if (target.role === 'owner' && memberships.filter((m) => m.role === 'owner').length === 1) {
      unprocessable({ user_id: ['The last owner of a merchant cannot be removed; delete the merchant instead.'] });
    }
    ctx.store.memberships.remove(target.id);
    return noContent();
  },
} satisfies Partial<Handlers>;
