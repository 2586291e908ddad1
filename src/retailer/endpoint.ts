/** What the relay's endpoint rule is made of: the schema of the contract's `RetailerEndpointPath` parameter. */
export interface EndpointSchema {
  pattern: string;
  maxLength: number;
}

/** Why an endpoint is refused, or null when the relay may pass it to the simulated retailer. */
export type EndpointCheck = (endpoint: string) => string | null;

/**
 * The relay's endpoint rule, from the contract's schema (given at start): no scheme prefix, no leading, trailing or
 * doubled slash, no `.`/`..` segment, no backslash, `#` or control character. The validator refuses such an
 * endpoint before the relay runs (in both forms: the raw one is rewritten into the validated one); the simulated
 * retailer checks it again from the same schema so that its no-network promise does not depend on its caller.
 * The contract lets an endpoint end in `?query`, which the relay moves into the query: the retailer takes a path only.
 */
export function endpointCheck(schema: EndpointSchema): EndpointCheck {
  const pattern = new RegExp(schema.pattern, 'u');
  return (endpoint) => {
    if (endpoint.length === 0) return 'The endpoint must not be empty.';
    if (endpoint.length > schema.maxLength) return `The endpoint must not be longer than ${schema.maxLength} characters.`;
    if (endpoint.includes('?')) return 'The endpoint must be a path; its query parameters go in the query.';
    if (!pattern.test(endpoint)) {
      return 'The endpoint must be a retailer API path such as orders/v0/orders: no scheme, no leading, trailing or double slash, no . or .. segments.';
    }
    return null;
  };
}
