import { outsideTransaction, type Handlers } from '../contract/handler-map.js';
import { notFound } from '../http/errors.js';
import { created, noContent } from '../http/reply.js';
import { demoTokens } from './demo-tokens.js';

/** Workspaces: isolated worlds for parallel CI jobs and docs visitors. */
export const workspaceHandlers = {
  createSandboxWorkspace: (_input, ctx) => {
    const ws = ctx.worlds.createWorkspace();
    return created({
      data: {
        id: ws.world.id,
        tokens: demoTokens(ws.world.tokenPrefix),
        created_at: new Date(ws.createdAt).toISOString(),
        idle_ttl_seconds: Math.ceil(ctx.worlds.idleTtlMs / 1000),
      },
    });
  },

  deleteSandboxWorkspace: ({ params }, ctx) => {
    if (!ctx.worlds.deleteWorkspace(params.workspace)) notFound('workspace');
    return noContent();
  },

  resetSandboxWorkspace: outsideTransaction(async ({ params }, ctx) => {
    const ws = ctx.worlds.workspace(params.workspace) ?? notFound('workspace');
    await ctx.worlds.reset(ws.world);
    return noContent();
  }),
} satisfies Partial<Handlers>;
