import type { Request } from 'express';
import type { UserRecord } from '../areas/users/records.js';
import type { World } from '../world.js';
import type { Worlds } from '../worlds.js';
import type { AccessPolicy } from './access-policy.js';
import { HOSTED_DEFAULT_TOKEN_MESSAGE, unauthenticated, WORKSPACE_GONE_MESSAGE } from '../http/errors.js';

/** Who a bearer token belongs to, and in which world. */
export interface Authenticated {
  world: World;
  user: UserRecord;
}

/**
 * The world and user of a bearer token (its prefix names the world), or undefined for a token no world knows. Only
 * a token that checked out marks its workspace used: a forged `ws_<id>.` prefix keeps no workspace alive.
 */
export function authenticate(worlds: Worlds, token: string): Authenticated | undefined {
  const world = worlds.worldOfSecret(token);
  if (!world) return undefined;
  const record = world.store.collections.tokens.get(token);
  const user = record && world.store.collections.users.get(record.user_id);
  if (!user) return undefined;
  worlds.markUsed(world);
  return { world, user };
}

/** The request proved it may act in `world` (a token, a consent state): it is journaled there, and keeps it alive. */
export function actsIn(req: Request, worlds: Worlds, world: World): void {
  (req as AuthenticatedRequest).actingWorld = world;
  worlds.markUsed(world);
}

/** Answers 401 for a token that authenticated nobody, saying so when its workspace is gone. */
export function refuseToken(worlds: Worlds, token: string | undefined): never {
  unauthenticated(token !== undefined && worlds.isGoneWorkspaceSecret(token) ? WORKSPACE_GONE_MESSAGE : undefined);
}

/** The request's authentication, set by the bearer security handler before the request validator runs. */
export interface AuthenticatedRequest extends Request {
  auth?: Authenticated;
  /**
   * The world the request proved it may act in (its token's, or what the control plane allowed): the only world it
   * is journaled and counted in. Unset, the request belongs to no workspace.
   */
  actingWorld?: World;
}

/**
 * The token of `Authorization: Bearer <token>`, or undefined for a missing header, another scheme or an empty token.
 * The scheme is case-insensitive and followed by any spaces or tabs (RFC 9110).
 */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The validator's handler for the contract's `bearerAuth` scheme: it runs only on operations the contract secures,
 * so the contract alone decides which operations need a token.
 */
export function bearerSecurityHandler(worlds: Worlds, policy: AccessPolicy) {
  return (req: Request): true => {
    const token = bearerToken(req.headers.authorization);
    const auth = token ? authenticate(worlds, token) : undefined;
    if (!auth) refuseToken(worlds, token);
    if (policy.hosted && auth.world === worlds.defaultWorld) unauthenticated(HOSTED_DEFAULT_TOKEN_MESSAGE);
    (req as AuthenticatedRequest).auth = auth;
    (req as AuthenticatedRequest).actingWorld = auth.world;
    return true;
  };
}
