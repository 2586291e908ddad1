// The service's order of checks: token (401), then the records the request names (404 unknown, 403 not a member),
// then the shape of the input (422), then the handler's own rules. The real service is a Laravel application, where
// route-model binding and authorization run before validation; express-openapi-validator validates right after
// security, so this step is spliced in between (src/pipeline/mount-contract.ts) and runs again inside the handler's
// transaction to hand the handler the records as they are when it runs.
import type { Request, RequestHandler } from 'express';
import type { UserRecord } from '../areas/users/records.js';
import type { World } from '../world.js';
import { isWorkspaceName, type Worlds } from '../worlds.js';
import { Access } from '../areas/access.js';
import type { AuthenticatedRequest } from './auth.js';
import { matchedOperationId } from '../contract/document/operation-facts.js';
import { controlPlaneWorkspace } from './control-plane-access.js';
import { notFound } from '../http/errors.js';
import type { BindingScope, RouteBindingTable } from '../areas/route-bindings.js';

/** Per operation, what the step resolves: its path parameters that name records (in path order) and its merchant_id. */
export interface BindingPlan {
  params: string[];
  /** Where the operation names the merchant it acts for; a body names it only where the contract requires it. */
  merchantId?: 'query' | 'body';
}

/** The records a request names, by path parameter name, plus `merchant` for its merchant_id. */
export type BoundRecords = Record<string, unknown>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resolves a plan: every bound path parameter in order, then the merchant_id. A merchant_id that is not a
 * well-formed UUID (or missing, or not a string) is input shape, left to validation's 422; a well-formed one that
 * names no merchant is 404. Without a caller (the control plane) existence is the only check.
 */
export function resolveBindings(
  plan: BindingPlan,
  table: RouteBindingTable,
  request: { params: Record<string, string>; query: unknown; body: unknown },
  scope: BindingScope,
  caller: UserRecord | undefined,
): BoundRecords {
  const bound: BoundRecords = Object.create(null);
  const access = caller && new Access(scope.store, caller);
  for (const name of plan.params) {
    const rule = table[name]!;
    const record = rule.find(scope, String(request.params[name]), bound) ?? notFound(rule.what);
    if (access && rule.merchantOf) access.member(rule.merchantOf(record, scope) ?? notFound(rule.what));
    bound[name] = record;
  }
  if (plan.merchantId && access) {
    const source = plan.merchantId === 'query' ? request.query : request.body;
    const id = typeof source === 'object' && source !== null ? (source as Record<string, unknown>).merchant_id : undefined;
    if (typeof id === 'string' && UUID.test(id)) bound.merchant = access.member(id);
  }
  return bound;
}

/**
 * The world a request acts on: the one it proved it may act in (src/access/control-plane-access.ts), or for an
 * operation anyone may call the one its `workspace` query names (the default world without one).
 */
export function requestWorld(req: Request, worlds: Worlds): World | undefined {
  return (req as AuthenticatedRequest).actingWorld ?? worlds.find(controlPlaneWorkspace(req));
}

/**
 * The pipeline step, after authorization and body parsing and before request validation: resolves the world and the operation's plan,
 * or passes the 404/403 to the error handler. A control-plane `workspace` that is not shaped like a workspace id is
 * input shape, like a malformed merchant_id: validation answers it (the adapter answers 404 for a well-formed one
 * that is not live). Catalog items become visible as imports complete, which writes, so the lookup runs in a
 * transaction of its own.
 */
export function bindResources(plans: Map<string, BindingPlan>, table: RouteBindingTable, worlds: Worlds): RequestHandler {
  return async (req, _res, next) => {
    try {
      const operationId = matchedOperationId(req);
      if (operationId === undefined) return next();
      const params = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {};
      const world = requestWorld(req, worlds);
      if (!world) {
        if (isWorkspaceName(controlPlaneWorkspace(req) ?? '')) notFound('workspace');
        return next();
      }
      const plan = plans.get(operationId);
      if (plan) {
        const scope = { store: world.store.collections, clock: world.clock, worlds };
        const caller = (req as AuthenticatedRequest).auth?.user;
        await world.store.transact(() => resolveBindings(plan, table, { params, query: req.query, body: req.body }, scope, caller));
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}
