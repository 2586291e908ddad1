import type { Request } from 'express';
import type { UserRecord } from '../areas/users/records.js';
import type { World } from '../world.js';
import type { Worlds } from '../worlds.js';
import type { AccessPolicy } from './access-policy.js';
import { unauthenticated } from './errors.js';

/** Who a bearer token belongs to, and in which world. */
export interface Authenticated {
  world: World;
  user: UserRecord;
}

/** The world and user of a bearer token (its prefix names the world), or undefined for a token no world knows. */
export function authenticate(worlds: Worlds, token: string): Authenticated | undefined {
  const world = worlds.worldOfSecret(token);
  if (!world) return undefined;
  const record = world.store.collections.tokens.get(token);
  const user = record && world.store.collections.users.get(record.user_id);
  return user ? { world, user } : undefined;
}

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
export function bearerSecurityHandler(worlds: Worlds, policy: AccessPolicy) {
  return (req: Request): true => {
    const token = bearerToken(req.headers.authorization);
    const auth = token ? authenticate(worlds, token) : undefined;
    if (!auth) unauthenticated();
    if (policy.hosted && auth.world === worlds.defaultWorld) unauthenticated(HOSTED_DEFAULT_TOKEN_MESSAGE);
    (req as AuthenticatedRequest).auth = auth;
    return true;
  };
}
