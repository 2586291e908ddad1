// Who may act on which world through the control plane (/_sandbox/*, operations the contract leaves unsecured).
// A workspace token acts on its own workspace alone, in both modes; hosted mode's admin token acts on any; without a
// token (or locally with a default-world token), local mode obeys `?workspace=` as a developer's laptop always did,
// and hosted mode answers 401.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { Worlds } from '../worlds.js';
import type { AccessPolicy } from './access-policy.js';
import { authenticate, bearerToken, HOSTED_DEFAULT_TOKEN_MESSAGE, type AuthenticatedRequest } from './auth.js';
import { forbidden, tooManyRequests, unauthenticated } from './errors.js';

/** The `?workspace=` a control-plane request names (operations without a token act on that world, or the default one). */
export function controlPlaneWorkspace(req: { query: unknown }): string | undefined {
  const value = (req.query as Record<string, unknown> | undefined)?.workspace;
  return typeof value === 'string' ? value : undefined;
}

/** Control-plane operations anyone may call: the readiness probe, and creating a workspace (limited per address). */
const OPEN = new Set(['getSandboxHealth', 'createSandboxWorkspace']);

const digest = (text: string) => createHash('sha256').update(text).digest();
/** Compares digests so the time taken says nothing about how much of the admin token a guess got right. */
const isAdminToken = (token: string, adminToken: string) => timingSafeEqual(digest(token), digest(adminToken));

/**
 * Checks a control-plane request before anything else reads its world: 401 without a usable token (hosted mode),
 * 403 when a workspace token names another workspace, 429 past the creation limit or, hosted, past the failed
 * admin attempts of the client address. A workspace token's world is
 * kept on the request (`controlWorld`) for the handler.
 */
export async function authorizeControlPlane(req: Request, operationId: string, worlds: Worlds, policy: AccessPolicy, pathWorkspace: string | undefined): Promise<void> {
  if (!req.path.startsWith('/_sandbox/')) return;
  if (OPEN.has(operationId)) {
    if (operationId === 'createSandboxWorkspace') limitCreation(req, policy);
    return;
  }
  const token = bearerToken(req.headers.authorization);
  if (token === undefined) {
    if (policy.hosted) unauthenticated('The sandbox control plane needs the bearer token of your workspace (POST /_sandbox/workspaces creates one).');
    return;
  }
  const auth = authenticate(worlds, token);
  // Hosted, a token no workspace knows is an admin attempt: throttled per address before it is compared.
  if (policy.hosted && !(auth && auth.world !== worlds.defaultWorld)) {
    const address = req.ip ?? 'unknown';
    await policy.hosted.adminAttempts.refuseWhenSpent(address);
    if (isAdminToken(token, policy.hosted.adminToken)) return;
    await policy.hosted.adminAttempts.failed(address);
  }
  if (!auth) unauthenticated();
  if (auth.world === worlds.defaultWorld) {
    // The default world's tokens scope nothing: locally the call goes on as without a token; hosted, they are refused.
    if (policy.hosted) unauthenticated(HOSTED_DEFAULT_TOKEN_MESSAGE);
    return;
  }
  const own = worlds.nameOf(auth.world);
  for (const named of [controlPlaneWorkspace(req), pathWorkspace]) {
    if (named !== undefined && named !== own) forbidden('A workspace token acts on its own workspace only.');
  }
  (req as AuthenticatedRequest).controlWorld = auth.world;
}

/** Counts a creation against the client address's limit: 429 with Retry-After past it (a refusal counts nothing). */
export function limitCreation(req: Pick<Request, 'ip'>, policy: AccessPolicy): void {
  const retryAfter = policy.creationLimit?.take(req.ip ?? 'unknown');
  if (retryAfter !== undefined) {
    tooManyRequests(`This address already created ${policy.creationLimit!.limit} workspaces this minute; retry in ${retryAfter} seconds.`, retryAfter);
  }
}
