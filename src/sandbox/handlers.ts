import { randomBytes } from 'node:crypto';
import { outsideTransaction, type Handlers } from '../contract/handler-map.js';
import { unprocessable } from '../http/errors.js';
import { created, noContent, ok } from '../http/reply.js';
import { presentUser } from '../areas/users/present.js';
import { resetWorld } from '../world.js';

/** A fresh API token: unguessable, and prefixed so a reader can tell a sandbox token from a demo one. */
export function newToken(): string {
  return `sbx_${randomBytes(18).toString('base64url')}`;
}

export const sandboxHandlers = {
  getSandboxHealth: (_input, ctx) =>
    ok({
      status: 'ok' as const,
      api_version: '2024-09',
      store: ctx.world.store.persistence.kind,
      seed: ctx.world.store.seed,
      started_at: ctx.worlds.startedAt,
    }),

  createSandboxUser: ({ body }, ctx) => {
    const suffix = randomBytes(4).toString('hex');
    const email = (body?.email ?? `user-${suffix}@sandbox.example`).toLowerCase();
    if (ctx.store.users.countWhere('email', email) > 0) unprocessable({ email: ['The email has already been taken.'] });
    const now = ctx.clock.nowIso();
    const user = ctx.store.users.insert({ id: ctx.newId(), name: body?.name ?? `Sandbox User ${suffix}`, email, created_at: now, updated_at: now });
    const token = ctx.store.tokens.insert({ id: newToken(), user_id: user.id, created_at: now });
    return created({ data: { user: presentUser(user), token: token.id } });
  },

  resetSandbox: outsideTransaction(async (_input, ctx) => {
    await resetWorld(ctx.world);
    return noContent();
  }),
} satisfies Partial<Handlers>;
