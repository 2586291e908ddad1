import type { IncomingMessage } from 'node:http';
import { DEFAULT_WORKSPACE, type Worlds } from '../worlds.js';

/**
 * The workspace a request ran in, for the journal and coverage: read after the response, once the request proved
 * which world it may act in (its token, what the control plane allowed, a consent state that checked out). A
 * request that proved nothing (no token, a forged `ws_<id>.` prefix, a `?workspace=` it may not use) belongs to no
 * workspace: it is filed under the default world, never in the journal of the workspace it names. Express's
 * observer and the fast path of workspace creation (src/pipeline/workspace-creation.ts) name it the same way.
 */
export function requestWorkspace(worlds: Worlds) {
  return (req: IncomingMessage): string => {
    const world = req.state?.actingWorld;
    return world ? worlds.nameOf(world) : DEFAULT_WORKSPACE;
  };
}
