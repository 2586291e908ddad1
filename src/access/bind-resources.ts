// The service's order of checks: token (401), then the records the request names (404 unknown, 403 not a member),
// then the shape of the input (422), then the handler's own rules. The real service is a Laravel application, where
// route-model binding and authorization run before validation. The pipeline resolves a request's records once,
// inside the handler's transaction, and answers their 404/403 there before the validator's verdict
// (src/pipeline/handle-request.ts), so the handler gets the records as they are when it runs.
import type { UserRecord } from '../areas/users/records.js';
import { Access } from '../areas/access.js';
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
