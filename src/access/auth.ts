// Who a request is: who its bearer token names (401), and the workspace it proved it acts in (for the journal). The
// records it names (404 unknown, 403 not a member) come next, in src/access/record-bindings.ts.
import type { Request } from 'express';
import type { UserRecord } from '../areas/users/records.js';
import type { World } from '../world.js';
import type { IncomingMessage } from 'node:http';
import { DEFAULT_WORKSPACE, type Worlds } from '../worlds.js';
import type { AccessPolicy } from './access-policy.js';
import { HOSTED_DEFAULT_TOKEN_MESSAGE, LOADED_WORLD_TOKEN_MESSAGE, unauthenticated, WORKSPACE_GONE_MESSAGE } from '../http/errors.js';

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
  if (req.state) req.state.actingWorld = world;
  worlds.markUsed(world);
}

/** Answers 401 for a token that authenticated nobody, saying so when its workspace is gone. */
export function refuseToken(worlds: Worlds, token: string | undefined): never {
  if (token === undefined || !worlds.isGoneWorkspaceSecret(token)) unauthenticated();
  unauthenticated(worlds.defaultLoaded ? LOADED_WORLD_TOKEN_MESSAGE : WORKSPACE_GONE_MESSAGE);
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
 * The one check of a token of the versioned API: the caller it names, or undefined with the 401 that refuses it
 * (`refuse`): no token, a token no world knows (saying so when its workspace is gone), and in hosted mode a token of
 * the default world, whose demo tokens everyone knows. The pipeline answers the refusal; runtime.authenticate
 * (for embedders) accepts exactly the tokens the pipeline accepts.
 */
export function checkToken(token: string | undefined, worlds: Worlds, policy: AccessPolicy): { caller?: Authenticated; refuse: () => never } {
  const auth = token ? authenticate(worlds, token) : undefined;
  if (!auth) return { refuse: () => refuseToken(worlds, token) };
  if (policy.hosted && auth.world === worlds.defaultWorld) return { refuse: () => unauthenticated(HOSTED_DEFAULT_TOKEN_MESSAGE) };
  return { caller: auth, refuse: () => unauthenticated() };
}

/**
 * The caller of an operation the contract secures with its bearer scheme (the pipeline asks only for those, so the
 * contract alone decides which operations need a token), or its 401 (checkToken).
 */
export function authenticateBearer(authorization: string | undefined, worlds: Worlds, policy: AccessPolicy): Authenticated {
  const { caller, refuse } = checkToken(bearerToken(authorization), worlds, policy);
  return caller ?? refuse();
}

/**
 * The workspace a request ran in, for the journal and coverage: read after the response, once the request proved
 * which world it may act in (its token, what the control plane allowed, a consent state that checked out). A
 * request that proved nothing (no token, a forged `ws_<id>.` prefix, a `?workspace=` it may not use) belongs to no
 * workspace: it is filed under the default world, never in the journal of the workspace it names.
 */
export function requestWorkspace(worlds: Worlds) {
  return (req: IncomingMessage): string => {
    const world = req.state?.actingWorld ?? tokenWorld(worlds, req);
    return world ? worlds.nameOf(world) : DEFAULT_WORKSPACE;
  };
}

/**
 * The world of a request refused before its token was read (no such route, a method the path lacks, an operation
 * that takes no token): the world its bearer token belongs to, when that token is real. So a CI job's 404 or 405
 * is in its own workspace's journal and export, the one place it reads; a forged prefix proves nothing.
 */
function tokenWorld(worlds: Worlds, req: IncomingMessage): World | undefined {
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) return undefined;
  const world = worlds.worldOfSecret(token);
  return world?.store.collections.tokens.get(token) ? world : undefined;
}
