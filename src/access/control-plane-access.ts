// Who may act on which world through the control plane (operations declaring `x-sandbox-access: workspace` or
// `owner`). A workspace token acts on its own workspace alone, in both modes, and where the operation declares
// `owner` (export, reset, delete, user creation) only the owner's token does; hosted mode's admin token acts on any;
// without a token (or locally with a default-world token), local mode obeys `?workspace=` as a developer's laptop
// always did, and hosted mode answers 401.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import type { World } from '../world.js';
import type { Worlds } from '../worlds.js';
import type { AccessPolicy } from './access-policy.js';
import { authenticate, bearerToken, refuseToken } from './auth.js';
import { clientKey } from './client-address.js';
import { forbidden, HOSTED_DEFAULT_TOKEN_MESSAGE, tooManyRequests, unauthenticated } from '../http/errors.js';
import { demoTokens } from '../sandbox/demo-tokens.js';

/** What another token of the workspace hears on an operation that declares `x-sandbox-access: owner`. */
export const OWNER_ONLY_MESSAGE = "Only the workspace's owner token (or the admin token) may export, reset or delete the workspace, or add users to it.";

/** The `?workspace=` a control-plane request names (operations without a token act on that world, or the default one). */
export function controlPlaneWorkspace(req: { query: unknown }): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.workspace;
  return typeof value === 'string' ? value : undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compares digests so the time taken says nothing about how much of the admin token a guess got right. */
const isAdminToken = (token: string, adminToken: string) => timingSafeEqual(digest(token), digest(adminToken));

/** The request as authorization reads it. */
type Asking = Pick<Request, 'ip' | 'query' | 'headers'>;

/**
 * The pipeline step right after routing and authentication, before anything reads the body or a world: what the
 * matched operation declares (src/contract/document/operation-facts.ts) decides. `anyone` passes (a creation counts against
 * the per-address limit: 429); `workspace` needs a token of the world it acts on or the admin token (401, 403);
 * `owner` as `workspace`, with the owner's token alone among the
 * workspace's; `token` was authenticated by the bearer scheme. The world the request proved it may act in becomes the state's
 * `actingWorld` (set before a 403, so a refusal is journaled where its token belongs).
 */
export async function authorizeOperation(
  req: Asking,
  state: { actingWorld?: World },
  fact: OperationFacts,
  pathParams: Readonly<Record<string, string>>,
  worlds: Worlds,
  policy: AccessPolicy,
): Promise<void> {
  if (fact.createsWorkspace) {
    await limitCreation(req, policy);
    // A creation the registry could not take (MAX_WORKSPACES, memory) is refused here too, before its body is read.
    worlds.admitCreation();
  }
  if (fact.caller !== 'workspace' && fact.caller !== 'owner') return;
  await authorizeControlPlane(req, state, worlds, policy, pathParams.workspace, fact.caller === 'owner');
}

/**
 * 401 without a usable token (hosted mode), 403 when a workspace token names another workspace or, where the
 * operation needs the owner, is not the owner's token (the creation's `tokens.owner`), 429 (hosted) once
 * the client address spent its failed admin attempts. The world the call may act in becomes the state's
 * `actingWorld`: the handler's world, and where the call is journaled.
 */
async function authorizeControlPlane(
  req: Asking,
  state: { actingWorld?: World },
  worlds: Worlds,
  policy: AccessPolicy,
  pathWorkspace: string | undefined,
  ownerOnly: boolean,
): Promise<void> {
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) {
    if (policy.hosted) unauthenticated('The sandbox control plane needs the bearer token of your workspace (POST /_sandbox/workspaces creates one).');
    state.actingWorld = worlds.resolve(controlPlaneWorkspace(req));
    return;
  }
  const auth = authenticate(worlds, token);
  // Hosted, a token no live workspace knows is an admin attempt: throttled per address before it is compared.
  if (policy.hosted && !(auth && auth.world !== worlds.defaultWorld)) {
    const address = clientKey(req.ip);
    await policy.hosted.adminAttempts.refuseWhenSpent(address);
    if (isAdminToken(token, policy.hosted.adminToken)) {
      // The operator looking at a workspace does not keep it alive: only its own visitor does.
      state.actingWorld = worlds.find(controlPlaneWorkspace(req));
      return;
    }
    await policy.hosted.adminAttempts.failed(address);
  }
  if (!auth) refuseToken(worlds, token);
  if (auth.world === worlds.defaultWorld) {
    // The default world's tokens scope nothing: locally the call goes on as without a token; hosted, they are refused.
    if (policy.hosted) unauthenticated(HOSTED_DEFAULT_TOKEN_MESSAGE);
    state.actingWorld = worlds.resolve(controlPlaneWorkspace(req));
    return;
  }
  state.actingWorld = auth.world;
  const own = worlds.nameOf(auth.world);
  for (const named of [controlPlaneWorkspace(req), pathWorkspace]) {
    if (named !== undefined && named !== own) forbidden('A workspace token acts on its own workspace only.');
  }
  // The members, outsiders and rivals of a world, and the users POST /_sandbox/users made, use it; its owner keeps it.
  if (ownerOnly && token !== demoTokens(auth.world.seedTokens).owner) forbidden(OWNER_ONLY_MESSAGE);
}

/** Counts a creation against the client address's limit: 429 with Retry-After past it (a refusal counts nothing). */
export async function limitCreation(req: Pick<Request, 'ip'>, policy: AccessPolicy): Promise<void> {
  const retryAfter = await policy.creationLimit?.take(clientKey(req.ip));
  if (retryAfter !== undefined) {
    tooManyRequests(`This address already created ${policy.creationLimit!.limit} workspaces this minute; retry in ${retryAfter} seconds.`, retryAfter);
  }
}
