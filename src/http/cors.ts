// A docs site or a browser client on another origin calls the sandbox directly, so the sandbox answers CORS
// itself (before auth and the contract validator: a preflight carries no token and is not an operation).
import corsMiddleware, { type CorsOptions as CorsPackageOptions } from 'cors';
import type { Request, RequestHandler } from 'express';
import type { Config } from '../config.js';
import { headersByKey } from './header-sets.js';

/** Which origins may call the sandbox from a browser. */
export interface CorsOptions {
  /** '*' (default): any origin, no credentials. A list: only those origins, echoed back, with credentials off too. */
  origins?: '*' | string[];
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAgeSeconds?: number;
}

/**
 * The origins a configuration lets call the sandbox from a browser. Locally any ('*'), unless CORS_ORIGINS lists
 * some. Hosted, the PUBLIC_URL origin (the docs page's own) plus those CORS_ORIGINS lists (a docs site elsewhere):
 * with '*', any website could have its visitors' browsers create workspaces and read their tokens, from the
 * visitors' own addresses, past every per-address limit. CORS_ORIGINS=* is still obeyed when an operator says so.
 */
export function allowedOrigins(config: Pick<Config, 'corsOrigins' | 'hosted' | 'publicUrl'>): '*' | string[] {
  const listed = config.corsOrigins;
  if (!config.hosted || listed === '*') return listed ?? '*';
  const own = config.publicUrl === undefined ? [] : [config.publicUrl];
  return [...new Set([...own, ...(listed ?? [])])];
}

/** Methods the versioned API uses; a preflight for anything else is answered without them. */
export const CORS_ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/**
 * Request headers a client may send: the token, JSON bodies, the scenario knobs, a request id to echo, and the
 * journal poller's If-None-Match (a 304 for nothing new).
 */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Prefer', 'Accept', 'X-Requested-With', 'X-Request-Id', 'If-None-Match'] as const;
/**
 * Response headers a browser script may read: throttling and location hints, the methods a path allows, the request
 * id, the retailer's status on a relayed call, what the sandbox did with the Prefer knobs, which request fields it
 * ignored, the journal's ETag (sent back as If-None-Match), and Vary (which request headers chose the answer's form:
 * the coverage report's Accept). A new sandbox header is one line here.
 */
export const CORS_EXPOSE_HEADERS = [
  'Retry-After',
  'Location',
  'Content-Length',
  'Allow',
  'X-Request-Id',
  'X-Retailer-Status',
  'Preference-Applied',
  'Sandbox-Prefer-Ignored',
  'Sandbox-Ignored-Fields',
  'ETag',
  'Vary',
] as const;

/** An exact, case-insensitive match of one configured origin (the cors package compares strings case-sensitively). */
function originPattern(origin: string): RegExp {
  return new RegExp(`^${origin.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'i');
}

/** A preflight is an OPTIONS that names the method it asks for; any other OPTIONS goes on to the routes. */
function isPreflight(req: Request): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/**
 * Express's `cors` with the sandbox's lists: CORS headers on every answer, and a 204 for preflights whatever the
 * path. A refused origin gets no Allow-* headers (its preflight is still 204: the missing Allow-Origin header is
 * what makes the browser refuse).
 */
export function cors(options: CorsOptions = {}): RequestHandler {
  const origins = options.origins ?? '*';
  const allowed = origins === '*' ? undefined : origins.map(originPattern);
  const granted: CorsPackageOptions = {
    origin: allowed ?? '*',
    methods: CORS_ALLOW_METHODS.join(', '),
    allowedHeaders: CORS_ALLOW_HEADERS.join(', '),
    exposedHeaders: CORS_EXPOSE_HEADERS.join(', '),
    maxAge: options.maxAgeSeconds ?? 600,
  };
  const refused: CorsPackageOptions = { origin: allowed, methods: [], allowedHeaders: [], exposedHeaders: [] };
  // The four answers' options, made once: granted or refused, for a preflight or any other request.
  const both = (base: CorsPackageOptions) => ({ preflight: { ...base, preflightContinue: false }, other: { ...base, preflightContinue: true } });
  const grantedOptions = both(granted);
  const refusedOptions = both(refused);
  const middleware = corsMiddleware<Request>((req, callback) => {
    const origin = req.headers.origin;
    const ok = !allowed || (origin !== undefined && allowed.some((p) => p.test(origin)));
    const answer = ok ? grantedOptions : refusedOptions;
    callback(null, isPreflight(req) ? answer.preflight : answer.other);
  });
  // For any request but an OPTIONS, the package's headers depend on the Origin alone: worked out by it once per
  // Origin (src/http/header-sets.ts). An OPTIONS, a preflight or not, runs it.
  return headersByKey(
    middleware,
    (req) => (req.method === 'OPTIONS' ? undefined : req.headers.origin === undefined ? '' : `:${req.headers.origin}`),
    (key) => ({ method: 'GET', headers: key === '' ? {} : { origin: key.slice(1) } }),
  );
}
