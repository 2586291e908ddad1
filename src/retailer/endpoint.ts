import { loadContract } from '../contract/document/load-contract.js';

interface EndpointSchema {
  pattern: string;
  maxLength: number;
}

/**
 * The relay's endpoint rule is the schema of the contract's `RetailerEndpointPath` parameter: no scheme prefix, no leading, trailing
 * or doubled slash, no `.`/`..` segment, no backslash, `#` or control character. The validator refuses such an
 * endpoint before the relay runs (in both forms: the raw one is rewritten into the validated one); the simulated
 * retailer checks it again from the same schema so that its no-network promise does not depend on its caller.
 * The contract lets an endpoint end in `?query`, which the relay moves into the query: the retailer takes a path only.
 */
const schema = (loadContract().doc.components as { parameters: Record<string, { schema: EndpointSchema }> }).parameters.RetailerEndpointPath.schema;

export const ENDPOINT_PATTERN = new RegExp(schema.pattern, 'u');

/** Longest endpoint accepted (the contract's maxLength). */
export const ENDPOINT_MAX_LENGTH = schema.maxLength;

/** Why an endpoint is refused, or null when the relay may pass it to the simulated retailer. */
export function endpointProblem(endpoint: string): string | null {
  if (endpoint.length === 0) return 'The endpoint must not be empty.';
  if (endpoint.length > ENDPOINT_MAX_LENGTH) return `The endpoint must not be longer than ${ENDPOINT_MAX_LENGTH} characters.`;
  if (endpoint.includes('?')) return 'The endpoint must be a path; its query parameters go in the query.';
  if (!ENDPOINT_PATTERN.test(endpoint)) {
    return 'The endpoint must be a retailer API path such as orders/v0/orders: no scheme, no leading, trailing or double slash, no . or .. segments.';
  }
  return null;
}
