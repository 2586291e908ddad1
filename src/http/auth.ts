import type { Request } from 'express';
import type { World } from '../world.js';
import type { Authenticated, Worlds } from '../worlds.js';
import { unauthenticated } from './errors.js';

/** The request's authentication, set by the bearer security handler before the request validator runs. */
export interface AuthenticatedRequest extends Request {
  auth?: Authenticated;
  /** The world a control-plane call acts on when a workspace token chose it (src/http/control-plane-access.ts). */
  controlWorld?: World;
}

/** What a default-world demo token hears in hosted mode, where the default world is nobody's to use. */
export const HOSTED_DEFAULT_TOKEN_MESSAGE =
  'The demo tokens of the default world are not accepted here; create your own workspace with POST /_sandbox/workspaces and use its tokens.';

/** The token of `Authorization: Bearer <token>`, or undefined for a missing header, another scheme or an empty token. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The validator's handler for the contract's `bearerAuth` scheme: it runs only on operations the contract secures,
 * so the contract alone decides which operations need a token.
 */
export function bearerSecurityHandler(worlds: Worlds) {
  return (req: Request): true => {
    const token = bearerToken(req.headers.authorization);
    const auth = token ? worlds.authenticate(token) : undefined;
    if (!auth) unauthenticated();
    if (worlds.hosted && auth.world === worlds.main) unauthenticated(HOSTED_DEFAULT_TOKEN_MESSAGE);
    (req as AuthenticatedRequest).auth = auth;
    return true;
  };
}
