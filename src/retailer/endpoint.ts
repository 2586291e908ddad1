/**
 * The relay's endpoint rule, the same as the contract's `RetailerEndpointPath` pattern: no scheme prefix, no
 * leading or trailing or doubled slash, no `.`/`..` segment, no backslash, `?`, `#` or control character.
 * The raw `call/a/b/c` route has no contract validation, so it must run this by hand.
 */
export const ENDPOINT_PATTERN =
  /^(?![A-Za-z][A-Za-z0-9+.\-]*:)(?!\/)(?!.*\/\/)(?!.*\/$)(?!(?:.*\/)?\.{1,2}(?:\/|$))[^\\\u0000-\u001F\u007F?#]+$/u;

/** Longest endpoint accepted (the contract's maxLength). */
export const ENDPOINT_MAX_LENGTH = 2048;

/** Why an endpoint is refused, or null when the relay may pass it to the simulated retailer. */
export function endpointProblem(endpoint: string): string | null {
  if (endpoint.length === 0) return 'The endpoint must not be empty.';
  if (endpoint.length > ENDPOINT_MAX_LENGTH) return `The endpoint must not be longer than ${ENDPOINT_MAX_LENGTH} characters.`;
  if (!ENDPOINT_PATTERN.test(endpoint)) {
    return 'The endpoint must be a retailer API path such as orders/v0/orders: no scheme, no leading, trailing or double slash, no . or .. segments.';
  }
  return null;
}
