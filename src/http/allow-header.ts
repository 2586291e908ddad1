const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

const rank = (method: string) => {
  const index = METHOD_ORDER.indexOf(method);
  return index < 0 ? METHOD_ORDER.length : index;
};

/**
 * RFC 9110's Allow value for a path's methods: upper-case, GET first, in one fixed order whoever answers the 405. A
 * path read with GET is read with HEAD too (operationMethodOf).
 */
export function allowHeader(methods: readonly string[]): string {
  const named = methods.map((method) => method.trim().toUpperCase()).filter(Boolean);
  if (named.includes('GET') && !named.includes('HEAD')) named.push('HEAD');
  return named.sort((a, b) => rank(a) - rank(b)).join(', ');
}

/**
 * The method whose operation a request of `method` is, among a path's methods (`has`): its own, or for HEAD the
 * path's GET, which the real service routes HEAD to as RFC 9110 asks (the same answer, without content). Undefined
 * when the path has neither.
 */
export function operationMethodOf(method: string, has: (method: string) => boolean): string | undefined {
  if (has(method)) return method;
  return method === 'HEAD' && has('GET') ? 'GET' : undefined;
}
