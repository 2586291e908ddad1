// Secrets must never leave the store: not in the request journal, not in log lines. Both go through this module:
// the journal redacts (and caps) what it keeps when it records it, a log line its URL when it is written.

/** What a secret is replaced with. */
export const REDACTED = '[REDACTED]';

// Names are compared after lower-casing and dropping '_' and '-', so access_token, accessToken, Access-Token and
// x-amz-access-token all match. A name containing one of these parts is a secret (`*token*` covers a new workspace's
// `tokens` map and the retailer's `x-amz-access-token`; `*key*` would also catch ordinary ids, so keys are named).
const SECRET_PARTS = /secret|password|token|apikey|privatekey/;
// When a token expires (a channel's `access_token_expires_at`, shown in every channel answer) says when, not what.
const TIME_SUFFIX = /expiresat$/;
// `state` is the consent flow's single-use authorization state (query, form body); the contract has no other field
// of that name, so it is a secret wherever it appears.
const SECRET_NAMES = new Set(['authorization', 'state']);
// The OAuth authorization `code` travels in the retailer callback's query string; in bodies `code` is
// ordinary data (country or currency codes), so it is a secret in queries only.
const QUERY_ONLY_SECRET_NAMES = new Set(['code']);
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key']);

function normalise(key: string): string {
  const lower = key.toLowerCase();
  return lower.includes('_') || lower.includes('-') ? lower.replace(/[_-]/g, '') : lower;
}

/** True for a name whose value is a secret (body field, query parameter or header), case-insensitively. */
export function isSecretKey(key: string, where: 'body' | 'query' = 'body'): boolean {
  const k = normalise(key);
  return SECRET_NAMES.has(k) || (SECRET_PARTS.test(k) && !TIME_SUFFIX.test(k)) || (where === 'query' && QUERY_ONLY_SECRET_NAMES.has(k));
}

/**
 * isSecretKey's verdicts by name, for a caller that redacts the same few names on every request (the journal: its
 * headers and its bodies' fields). Bounded: cleared whole when full, and a long name is never kept.
 */
export class SecretNames {
  private readonly verdicts = { body: new Map<string, boolean>(), query: new Map<string, boolean>() };

  constructor(private readonly maxNames = 1024) {}

  is(key: string, where: 'body' | 'query' = 'body'): boolean {
    const verdicts = this.verdicts[where];
    let secret = verdicts.get(key);
    if (secret === undefined) {
      secret = isSecretKey(key, where);
      if (key.length <= 64) {
        if (verdicts.size >= this.maxNames) verdicts.clear();
        verdicts.set(key, secret);
      }
    }
    return secret;
  }
}

/** Deeper than this, the journal keeps a marker: no contract shape nests that far, and recursion must stay bounded. */
export const MAX_DEPTH = 64;

/** A redacted copy of a value, cut to a budget of (about) so many bytes of its JSON. */
export interface Capped {
  value: unknown;
  /** True when something was left out (items, fields, the end of a string) to stay within the budget. */
  truncated: boolean;
  /** About how many bytes of JSON the copy holds: what a bounded keeper counts. */
  bytes: number;
}

/**
 * A string of its own: V8 keeps a slice of a long string as a view of the whole, so a 16 KiB cut of a 1 MiB body
 * string would hold the 1 MiB for as long as the journal keeps the entry.
 */
function copied(slice: string): string {
  return Buffer.from(slice, 'utf8').toString('utf8');
}

/** A text cut to at most `max` characters, as a string of its own (never half of a surrogate pair). */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = max > 0 && /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return copied(text.slice(0, keep));
}

/**
 * One walk over a value: a budget that every copied part spends (its JSON size, roughly), so the walk stops after
 * about `budget` bytes whatever the value's size: a 1 MiB body costs as much to record as a 16 KiB one.
 */
class Walk {
  truncated = false;
  readonly seen = new WeakSet<object>();
  constructor(
    readonly where: 'body' | 'query',
    public budget: number,
    private readonly names?: SecretNames,
  ) {}

  string(value: string): string {
    // A URL in a body or header (a consent URL, a Referer) may carry a state or token in its query string.
    const cost = value.length + 2;
    if (cost <= this.budget) {
      this.budget -= cost;
      return value.includes('?') ? redactUrl(value) : value;
    }
    let keep = Math.max(0, this.budget - 2);
    // Never half of a surrogate pair.
    if (keep > 0 && /[\uD800-\uDBFF]/.test(value[keep - 1]!)) keep--;
    this.budget = 0;
    this.truncated = true;
    const cut = copied(value.slice(0, keep));
    return `${cut.includes('?') ? redactUrl(cut) : cut}…[truncated ${value.length - keep} chars]`;
  }

  copy(value: unknown, depth: number): unknown {
    if (typeof value === 'string') return this.string(value);
    if (value === null || typeof value !== 'object') {
      this.budget -= typeof value === 'number' || typeof value === 'boolean' ? String(value).length : 4;
      return value;
    }
    if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return this.string(`[binary ${value.byteLength} bytes]`);
    if (this.seen.has(value)) return this.string('[circular]');
    if (depth >= MAX_DEPTH) return this.string(`[nested deeper than ${MAX_DEPTH} levels]`);
    this.seen.add(value);
    this.budget -= 2;
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) {
        if (this.budget <= 0) return this.cut(out);
        out.push(this.copy(item, depth + 1));
        this.budget -= 1;
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    // for...in stops where the budget does: a body of a million fields is not listed whole first.
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      if (this.budget <= 0) return this.cut(out);
      this.budget -= key.length + 4;
      const field = (value as Record<string, unknown>)[key];
      // true, false and null hide nothing (the call log's `refreshed_token: true`): kept, whatever the name.
      const secret = field !== null && typeof field !== 'boolean' && (this.names ? this.names.is(key, this.where) : isSecretKey(key, this.where));
      const copy = secret ? this.string(REDACTED) : this.copy(field, depth + 1);
      // Defined, not assigned, for `__proto__`: kept as data, never set as a prototype.
      if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
      else out[key] = copy;
    }
    return out;
  }

  private cut<T>(partial: T): T {
    this.truncated = true;
    return partial;
  }
}

/**
 * A deep copy of a JSON-ish body with every secret-named field's value replaced, at any depth, cut to about
 * `maxBytes` of JSON. `names` keeps the verdicts on names.
 */
export function capBody(body: unknown, maxBytes: number, names?: SecretNames): Capped {
  return capped(body, 'body', maxBytes, names);
}

function capped(value: unknown, where: 'body' | 'query', maxBytes: number, names?: SecretNames): Capped {
  const walk = new Walk(where, maxBytes, names);
  const copy = walk.copy(value, 0);
  return { value: copy, truncated: walk.truncated, bytes: Math.max(0, maxBytes - walk.budget) };
}

/** A redacted copy of a body, whole (no budget): for callers that keep nothing. */
export function redactBody<T>(body: T): T {
  return capped(body, 'body', Infinity).value as T;
}

/** Like redactBody, for a parsed query string, where an OAuth `code` is a secret too. */
export function redactQuery<T>(query: T, names?: SecretNames): T {
  return capped(query, 'query', Infinity, names).value as T;
}

/** Redacts a bearer (or any) credential but keeps its scheme, so a reader still sees what kind was sent. */
export function redactCredential(value: string): string {
  // Nearly every credential is a bearer token: its redacted form needs no match.
  if (value.startsWith('Bearer ') && value.length > 7 && value.charCodeAt(7) > 32) return REDACTED_BEARER;
  const scheme = /^\s*(\S+)\s+\S/.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

const REDACTED_BEARER = `Bearer ${REDACTED}`;

/**
 * A credential by its form, under any header name: a bearer token, or a Basic one (base64 of user:password alone, so a
 * value like `Basic plan` is not one).
 */
const CREDENTIAL_VALUE = /^\s*(?:bearer\s+\S|basic\s+[A-Za-z0-9+/]+=*\s*$)/i;

/**
 * Header names lower-cased; credentials, cookies and secret-named headers (`x-amz-access-token`, and any name with
 * `authorization` in it, as a proxy forwards one: `x-forwarded-authorization`) redacted; bearer and Basic values
 * redacted under any name; secret query parameters of a URL in a header (a Referer) redacted.
 */
export function redactHeaders(headers: Record<string, string | string[] | number | undefined>, names?: SecretNames): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name in headers) {
    const raw = headers[name];
    if (raw === undefined) continue;
    const key = name.toLowerCase();
    const value = typeof raw === 'string' ? raw : Array.isArray(raw) ? raw.join(', ') : String(raw);
    if (SECRET_HEADERS.has(key) || key.includes('authorization') || (names ? names.is(key) : isSecretKey(key)))
      out[key] = key.includes('cookie') ? REDACTED : redactCredential(value);
    else if (CREDENTIAL_VALUE.test(value)) out[key] = redactCredential(value);
    else out[key] = value.includes('?') ? redactUrl(value) : value;
  }
  return out;
}

/** Redacts secret query parameters inside a URL or path-with-query, for log lines; the rest stays byte-identical. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const pairs = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      let key = rawKey;
      try {
        key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
      } catch {
        // A malformed escape is still checked as written.
      }
      // A bracketed name (`filter[access_token]`) is parsed as nested fields, each of which the journal's walk
      // checks: so is each part here.
      return key.split(/[[\]]+/).some((part) => part !== '' && isSecretKey(part, 'query')) ? `${rawKey}=${REDACTED}` : pair;
    });
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}
