import { randomBytes } from 'node:crypto';
import { outsideTransaction, type Handlers } from '../areas/handler-map.js';
import type { Ctx } from '../areas/context.js';
import type { Collections } from '../areas/collections.js';
import { MAX_CLOCK_OFFSET_DAYS, type World } from '../world.js';
import { unprocessable } from '../http/errors.js';
import { created, noContent, ok } from '../http/reply.js';
import { presentUser } from '../areas/users/present.js';

/** A fresh API token: unguessable, and prefixed so a reader can tell a sandbox token from a demo one. */
export function newToken(): string {
  return `sbx_${randomBytes(18).toString('base64url')}`;
}

/**
 * Stores a new token acting as the user in the world and answers it. A workspace's tokens carry its prefix, so
 * authentication finds the workspace without searching every world.
 */
export function issueToken(tokens: Collections['tokens'], world: World, userId: string, now: string): string {
  return tokens.insert({ id: (world.tokenPrefix ?? '') + newToken(), user_id: userId, created_at: now }).id;
}

/** A world's clock as the control plane shows it. */
export function presentClock(ctx: Ctx) {
  return { workspace: ctx.worlds.nameOf(ctx.world), now: ctx.clock.nowIso(), offset_ms: ctx.clock.offset };
}

const MS = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 } as const;
/** Far enough for any yearly series; a bound keeps the clock's arithmetic exact. */
const MAX_ADVANCE_MS = 366 * MS.days;

/**
 * Control-plane operations that act on one world: the default world, or the workspace named by `?workspace=`
 * (the contract adapter resolves it into ctx.world before the handler runs).
 */
export const worldHandlers = {
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
    return created({ data: { user: presentUser(user), token: issueToken(ctx.store.tokens, ctx.world, user.id, now) } });
  },

  createSandboxUserToken: ({ bound }, ctx) =>
    created({ data: { user: presentUser(bound.user), token: issueToken(ctx.store.tokens, ctx.world, bound.user.id, ctx.clock.nowIso()) } }),

  resetSandbox: outsideTransaction(async (_input, ctx) => {
    await ctx.worlds.reset(ctx.world);
    return noContent();
  }),

  getSandboxClock: (_input, ctx) => ok({ data: presentClock(ctx) }),

  advanceSandboxClock: outsideTransaction(async ({ body }, ctx) => {
    const ms = Object.entries(body).reduce((sum, [unit, n]) => sum + (n ?? 0) * MS[unit as keyof typeof MS], 0);
    if (ms > MAX_ADVANCE_MS) unprocessable({ body: ['The clock moves at most 366 days per call.'] });
    if (!ctx.clock.canAdvance(ms)) {
      unprocessable({ body: [`The clock runs at most ${MAX_CLOCK_OFFSET_DAYS} days ahead of the wall clock; reset the world to start again.`] });
    }
    ctx.clock.advance(ms);
    // Kept like a record's change: answered once a restart would resume at this time.
    await ctx.world.store.persistence.commitClock?.(ctx.clock.offset);
    return ok({ data: presentClock(ctx) });
  }),
} satisfies Partial<Handlers>;
