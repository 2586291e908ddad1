import { deref, isObj, type ContractDocument } from './load-contract.js';

/**
 * The schema of the contract's `RetailerEndpointPath` parameter, read once at start for the simulated retailer,
 * which checks every relayed endpoint against it again. A contract without it cannot start: the relay would have
 * no rule for what it may pass on.
 */
export function retailerEndpointSchema(doc: ContractDocument): { pattern: string; maxLength: number } {
  const parameters = isObj(doc.components) ? doc.components.parameters : undefined;
  const parameter = isObj(parameters) ? deref(doc, parameters.RetailerEndpointPath) : undefined;
  const schema = isObj(parameter) ? deref(doc, parameter.schema) : undefined;
  if (!isObj(schema) || typeof schema.pattern !== 'string' || typeof schema.maxLength !== 'number') {
    throw new Error('the contract has no RetailerEndpointPath parameter with a string pattern and a maxLength: the relay has no endpoint rule');
  }
  return { pattern: schema.pattern, maxLength: schema.maxLength };
}
