const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

const rank = (method: string) => {
  const index = METHOD_ORDER.indexOf(method);
  return index < 0 ? METHOD_ORDER.length : index;
};

/** RFC 9110's Allow value for a path's methods: upper-case, GET first, in one fixed order whoever answers the 405. */
export function allowHeader(methods: readonly string[]): string {
  return methods
    .map((method) => method.trim().toUpperCase())
    .filter(Boolean)
    .sort((a, b) => rank(a) - rank(b))
    .join(', ');
}
