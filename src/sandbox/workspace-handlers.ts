import type { components } from '../contract/document/generated.js';
import { outsideTransaction, type Handlers } from '../areas/handler-map.js';
import { forbidden } from '../http/errors.js';
import { created, noContent } from '../http/reply.js';
import { DEFAULT_WORKSPACE, type Workspace, type Worlds } from '../worlds.js';
import { demoTokens } from './demo-tokens.js';
import { bundleLoad, type BundleLoad } from './load-workspace.js';

const DEFAULT_WORLD_KEPT = 'The default world cannot be deleted; POST /_sandbox/workspaces/default/reset puts it back to its seeded state.';

type SandboxWorkspaceEnvelope = components['schemas']['SandboxWorkspaceEnvelope'];

/** What POST /_sandbox/workspaces answers for a workspace it created. */
function workspaceAnswer(worlds: Worlds, ws: Workspace): SandboxWorkspaceEnvelope {
  return {
    data: {
      id: ws.id,
      tokens: demoTokens(ws.seedTokens),
      created_at: new Date(ws.createdAt).toISOString(),
      idle_ttl_seconds: Math.ceil(worlds.idleTtlMs / 1000),
    },
  };
}

/**
 * Creates a workspace and answers what POST /_sandbox/workspaces answers; a refusal (WorkspaceRefused: 429 at the
 * workspace limit, 503 short of memory) is the error handler's to answer.
 */
function newWorkspaceAnswer(worlds: Worlds): SandboxWorkspaceEnvelope {
  return workspaceAnswer(worlds, worlds.createWorkspace());
}

/** Creates a workspace loaded from a bundle, over turns of the event loop, and answers as newWorkspaceAnswer does. */
async function loadedWorkspaceAnswer(worlds: Worlds, load: BundleLoad): Promise<SandboxWorkspaceEnvelope> {
  const ws = await worlds.createWorkspaceFrom(load.prepare);
  await load.loaded(ws.id);
  return workspaceAnswer(worlds, ws);
}

/** Workspaces: isolated worlds for parallel CI jobs and docs visitors. */
export const workspaceHandlers = {
  // With a bundle as body, the new workspace is the bundle's world (src/sandbox/load-workspace.ts), built over
  // turns of the event loop: outside a transaction, which must be synchronous (a creation writes no live world).
  createSandboxWorkspace: outsideTransaction(async ({ body }, ctx) => {
    const load = bundleLoad(body, ctx);
    return created(load ? await loadedWorkspaceAnswer(ctx.worlds, load) : newWorkspaceAnswer(ctx.worlds));
  }),

  deleteSandboxWorkspace: ({ bound }, ctx) => {
    // The default world lives as long as the server; putting it back is what a caller can mean.
    if (bound.workspace.id === DEFAULT_WORKSPACE) forbidden(DEFAULT_WORLD_KEPT);
    ctx.worlds.deleteWorkspace(bound.workspace.id);
    return noContent();
  },

  resetSandboxWorkspace: outsideTransaction(async ({ bound }, ctx) => {
    await ctx.worlds.reset(bound.workspace.world);
    return noContent();
  }),
} satisfies Partial<Handlers>;
