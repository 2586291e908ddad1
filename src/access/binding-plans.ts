import type { BindingPlan } from './auth.js';
import type { RouteBindingTable } from '../areas/route-bindings.js';
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';

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
