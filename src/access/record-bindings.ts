// The records a request names, in the service's order after its token: each operation's plan, read once from the
// contract (which path parameters and which merchant_id name records), and its resolution per request (404 unknown,
// 403 not a member).
import type { UserRecord } from '../areas/users/records.js';
import { Access } from '../areas/context.js';
import type { BindingScope, RouteBindingTable } from '../areas/route-bindings.js';
import { UUID } from '../contract/document/formats.js';
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { notFound } from '../http/errors.js';

/**
 * The plan of every operation that names records, read from the contract: the `{name}` segments of its path that
 * the table binds (in path order, so a parent is bound before what must belong to it), and a `merchant_id` query
 * parameter or required body property. A body whose `merchant_id` is optional (or absent) names no merchant: there
 * it is at most a field. Refuses a path parameter the table does not list, so a new one is a decision.
 */
export function bindingPlans(doc: ContractDocument, table: RouteBindingTable): Map<string, BindingPlan> {
  const plans = new Map<string, BindingPlan>();
  for (const op of listOperations(doc)) {
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const unlisted = names.filter((name) => !(name in table));
    if (unlisted.length) throw new Error(`no route binding for path parameter ${unlisted.join(', ')} of ${op.operationId}`);
    const pathItem = doc.paths[op.path] as { parameters?: unknown[] };
    const parameters = [...(pathItem.parameters ?? []), ...((op.operation.parameters as unknown[] | undefined) ?? [])];
    const plan: BindingPlan = { params: names.filter((name) => table[name] !== null) };
    if (namesMerchantInQuery(doc, parameters)) plan.merchantId = 'query';
    else if (requiresMerchantInBody(doc, op.operation.requestBody)) plan.merchantId = 'body';
    if (plan.params.length || plan.merchantId) plans.set(op.operationId, plan);
  }
  return plans;
}

function namesMerchantInQuery(doc: ContractDocument, parameters: unknown[]): boolean {
  return parameters.map((p) => deref(doc, p)).some((p) => isObj(p) && p.in === 'query' && p.name === 'merchant_id');
}

function requiresMerchantInBody(doc: ContractDocument, requestBody: unknown): boolean {
  const body = deref(doc, requestBody);
  const media = isObj(body) && isObj(body.content) ? deref(doc, body.content['application/json']) : undefined;
  const schema = isObj(media) ? deref(doc, media.schema) : undefined;
  return isObj(schema) && Array.isArray(schema.required) && schema.required.includes('merchant_id');
}

// The service's order of checks: token (401), then the records the request names (404 unknown, 403 not a member),
// then the shape of the input (422), then the handler's own rules. The real service is a Laravel application, where
// route-model binding and authorization run before validation. The pipeline resolves a request's records once,
// inside the handler's transaction, and answers their 404/403 there before the validator's verdict
// (src/pipeline/handle-request.ts), so the handler gets the records as they are when it runs.
/** Per operation, what the step resolves: its path parameters that name records (in path order) and its merchant_id. */
export interface BindingPlan {
  params: string[];
  /** Where the operation names the merchant it acts for; a body names it only where the contract requires it. */
  merchantId?: 'query' | 'body';
}

/** The records a request names, by path parameter name, plus `merchant` for its merchant_id. */
export type BoundRecords = Record<string, unknown>;

/**
 * Resolves a plan: every bound path parameter in order, then the merchant_id. A merchant_id that is not a
 * well-formed UUID (or missing, or not a string) is input shape, left to validation's 422; a well-formed one that
 * names no merchant is 404. Without a caller (the control plane) existence is the only check. `naming` hears each
 * parameter and id before it is resolved, so a 404/403 can name the record it is about.
 */
export function resolveBindings(
  plan: BindingPlan,
  table: RouteBindingTable,
  request: { params: Record<string, string>; query: unknown; body: unknown },
  scope: BindingScope,
  caller: UserRecord | undefined,
  naming?: (parameter: string, id: string) => void,
): BoundRecords {
  const bound: BoundRecords = Object.create(null);
  const access = caller && new Access(scope.store, caller);
  for (const name of plan.params) {
    const rule = table[name]!;
    const id = String(request.params[name]);
    naming?.(name, id);
    const record = rule.find(scope, id, bound) ?? notFound(rule.what);
    if (access && rule.merchantOf) access.member(rule.merchantOf(record, scope) ?? notFound(rule.what), rule.what);
    bound[name] = record;
  }
  if (plan.merchantId && access) {
    const source = plan.merchantId === 'query' ? request.query : request.body;
    const id = typeof source === 'object' && source !== null ? (source as Record<string, unknown>).merchant_id : undefined;
    if (typeof id === 'string' && UUID.test(id)) {
      naming?.('merchant_id', id);
      bound.merchant = access.member(id);
    }
  }
  return bound;
}
