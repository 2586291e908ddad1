import type { components } from '../contract/document/generated.js';
import { outsideTransaction, type Handlers } from '../areas/handler-map.js';
import { forbidden, httpError, tooManyRequests } from '../http/errors.js';
import { created, noContent } from '../http/reply.js';
import type { World } from '../world.js';
import { DEFAULT_WORKSPACE, WorkspaceRefused, type Workspace, type Worlds } from '../worlds.js';

const DEFAULT_WORLD_KEPT = 'The default world cannot be deleted; POST /_sandbox/workspaces/default/reset puts it back to its seeded state.';
import { demoTokens } from './demo-tokens.js';
import { bundleLoad, type BundleLoad } from './load-workspace.js';

type SandboxWorkspaceEnvelope = components['schemas']['SandboxWorkspaceEnvelope'];

/** A new workspace, or the registry's refusal as an answer: 429 at the workspace limit, 503 short of memory. */
function createWorkspace(worlds: Worlds, prepare?: (world: World) => void): Workspace {
  try {
    return worlds.createWorkspace(prepare);
  } catch (error) {
    if (!(error instanceof WorkspaceRefused)) throw error;
    if (error.reason === 'limit') tooManyRequests(error.message, error.retryAfterSeconds);
    return httpError(503, error.message, undefined, { 'Retry-After': String(error.retryAfterSeconds) });
  }
}

/**
 * Creates a workspace and answers what POST /_sandbox/workspaces answers (HttpError 429 or 503 when refused): the
 * handler and the fast path in front of Express (src/pipeline/workspace-creation.ts) both answer with this.
 */
export function newWorkspaceAnswer(worlds: Worlds, load?: BundleLoad): SandboxWorkspaceEnvelope {
  const ws = createWorkspace(worlds, load?.prepare);
  load?.loaded(ws.id);
  return {
    data: {
      id: ws.id,
      tokens: demoTokens(ws.seedTokens),
      created_at: new Date(ws.createdAt).toISOString(),
      idle_ttl_seconds: Math.ceil(worlds.idleTtlMs / 1000),
    },
  };
}

/** Workspaces: isolated worlds for parallel CI jobs and docs visitors. */
export const workspaceHandlers = {
  // With a bundle as body, the new workspace is the bundle's world (src/sandbox/load-workspace.ts).
  createSandboxWorkspace: ({ body }, ctx) => created(newWorkspaceAnswer(ctx.worlds, bundleLoad(body, ctx))),

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
