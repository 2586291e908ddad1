import type { Request } from 'express';
import { consentStateOf } from '../areas/channels/consent-routes.js';
import { bearerToken, type AuthenticatedRequest } from '../http/auth.js';
import { controlPlaneWorkspace } from '../http/control-plane-access.js';
import { DEFAULT_WORKSPACE, type Worlds } from '../worlds.js';

/**
 * The workspace a request ran in, for the journal and coverage: read after the response, when auth has run. Express's
 * observer and the fast path of workspace creation (src/http/workspace-creation.ts) name it the same way.
 */
export function requestWorkspace(worlds: Worlds) {
  return (req: Request): string => {
    const auth = (req as AuthenticatedRequest).auth;
    if (auth) return worlds.nameOf(auth.world);
    // A rejected workspace token still belongs to its workspace's journal: that is where its job looks. The
    // retailer's consent pages carry no token, but their state has the same prefix.
    const token = bearerToken(req.headers.authorization) ?? consentStateOf(req);
    const fromToken = token === undefined ? undefined : worlds.workspaceOfToken(token);
    if (fromToken) return fromToken;
    return (req.path.startsWith('/_sandbox/') ? controlPlaneWorkspace(req) : undefined) ?? DEFAULT_WORKSPACE;
  };
}
