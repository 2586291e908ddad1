// Secrets must never leave the store: not in the request journal, not in log lines. Log lines are redacted when
// written; a journal entry when it is first read (src/sandbox/request-journal.ts), the only way out of the journal.

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

// Compared after lower-casing and dropping '_' and '-', so access_token, accessToken and Access-Token all match.
// `tokens` is the map of a new workspace's demo tokens, secrets every one.
const SECRET_KEYS = new Set(['accesstoken', 'refreshtoken', 'token', 'tokens', 'password', 'authorization', 'clientsecret', 'apikey']);
// The OAuth authorization `code` travels in the retailer callback's query string; in bodies `code` is
// ordinary data (country or currency codes), so it is a secret in queries only.
const QUERY_ONLY_SECRET_KEYS = new Set(['code']);
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

/** Long strings (base64 images, relayed retailer bodies) are cut so a bounded journal also stays small. */
export const MAX_STRING_CHARS = 8_192;

function normalise(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** True for a key whose value is a secret wherever it appears (bodies, queries). */
export function isSecretKey(key: string, where: 'body' | 'query' = 'body'): boolean {
  const k = normalise(key);
  return SECRET_KEYS.has(k) || (where === 'query' && QUERY_ONLY_SECRET_KEYS.has(k));
}

/** Deeper than this, the journal keeps a marker: no contract shape nests that far, and recursion must stay bounded. */
const MAX_DEPTH = 64;

function redactValue(value: unknown, where: 'body' | 'query', seen: WeakSet<object>, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > MAX_STRING_CHARS
      ? `${value.slice(0, MAX_STRING_CHARS)}…[truncated ${value.length - MAX_STRING_CHARS} chars]`
      : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[binary ${value.byteLength} bytes]`;
  if (seen.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return `[nested deeper than ${MAX_DEPTH} levels]`;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, where, seen, depth + 1));
  // fromEntries defines own properties, so a key such as `__proto__` is kept as data, never set as a prototype.
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [key, isSecretKey(key, where) ? REDACTED : redactValue(v, where, seen, depth + 1)]),
  );
}

/** Redacted copies by original body, kept by whoever redacts the same bodies again and again (the journal). */
export type RedactedBodies = WeakMap<object, unknown>;

/**
 * A deep copy of a JSON-ish body with every secret-named key's value replaced, at any depth. With `memo`, a body
 * already redacted is not redacted again: callers never change a body after handing it over.
 */
export function redactBody<T>(body: T, memo?: RedactedBodies): T {
  if (body === null || typeof body !== 'object' || !memo) return redactValue(body, 'body', new WeakSet()) as T;
  let redacted = memo.get(body);
  if (redacted === undefined) memo.set(body, (redacted = redactValue(body, 'body', new WeakSet())));
  return redacted as T;
}

/** Like redactBody, for a parsed query string, where an OAuth `code` is a secret too. */
export function redactQuery<T>(query: T): T {
  return redactValue(query, 'query', new WeakSet()) as T;
}

/** Redacts a bearer (or any) credential but keeps its scheme, so a reader still sees what kind was sent. */
export function redactCredential(value: string): string {
  const scheme = /^\s*(\S+)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** Header names lower-cased, credentials and cookies redacted, bearer values redacted under any name. */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const key = name.toLowerCase();
    const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (SECRET_HEADERS.has(key) || isSecretKey(key)) out[key] = key.includes('cookie') ? REDACTED : redactCredential(value);
    else if (/^\s*bearer\s+\S/i.test(value)) out[key] = redactCredential(value);
    else out[key] = value;
  }
  return out;
}

/** Redacts secret query parameters inside a URL or path-with-query, for log lines; the rest stays byte-identical. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    let key = rawKey;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      // A malformed escape is still checked as written.
    }
    return isSecretKey(key.replace(/\[.*$/, ''), 'query') ? `${rawKey}=${REDACTED}` : pair;
  });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}
