import { outsideTransaction, type Handlers } from '../contract/handler-map.js';
import { created, noContent } from '../http/reply.js';
import { demoTokens } from './demo-tokens.js';

/** Workspaces: isolated worlds for parallel CI jobs and docs visitors. */
export const workspaceHandlers = {
  createSandboxWorkspace: (_input, ctx) => {
    const ws = ctx.worlds.createWorkspace();
    return created({
      data: {
        id: ws.world.id,
        tokens: demoTokens(ws.world.seedTokenPrefix),
        created_at: new Date(ws.createdAt).toISOString(),
        idle_ttl_seconds: Math.ceil(ctx.worlds.idleTtlMs / 1000),
      },
    });
  },

  deleteSandboxWorkspace: ({ bound }, ctx) => {
    ctx.worlds.deleteWorkspace(bound.workspace.world.id);
    return noContent();
  },

  resetSandboxWorkspace: outsideTransaction(async ({ bound }, ctx) => {
    await ctx.worlds.reset(bound.workspace.world);
    return noContent();
  }),
} satisfies Partial<Handlers>;
