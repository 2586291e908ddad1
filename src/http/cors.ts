// A docs site or a browser client on another origin calls the sandbox directly, so the sandbox answers CORS
// itself (before auth and the contract validator: a preflight carries no token and is not an operation).
import type { RequestHandler } from 'express';

/** Which origins may call the sandbox from a browser. */
export interface CorsOptions {
  /** '*' (default): any origin, no credentials. A list: only those origins, echoed back, with credentials off too. */
  origins?: '*' | string[];
  /** How long a browser may cache a preflight answer, in seconds. */
  maxAgeSeconds?: number;
}

/** Methods the versioned API uses; a preflight for anything else is answered without them. */
export const CORS_ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** Request headers a client may send: the token, JSON bodies and the scenario knobs. */
export const CORS_ALLOW_HEADERS = ['Authorization', 'Content-Type', 'Prefer', 'Accept', 'X-Requested-With'] as const;
/**
 * Response headers a browser script may read: throttling and location hints, the retailer's status on a relayed
 * call, what the sandbox did with the Prefer knobs, and which request fields it ignored.
 */
export const CORS_EXPOSE_HEADERS = [
  'Retry-After',
  'Location',
  'Content-Length',
  'X-Request-Id',
  'X-Retailer-Status',
  'Preference-Applied',
  'Sandbox-Prefer-Ignored',
  'Sandbox-Ignored-Fields',
] as const;

/** Parses a CORS_ORIGINS-style setting ('*' or a comma-separated list) into CorsOptions.origins. */
export function parseCorsOrigins(value: string | undefined): '*' | string[] {
  const trimmed = value?.trim();
  if (!trimmed || trimmed === '*') return '*';
  return trimmed
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
}

function appendVary(existing: string | number | string[] | undefined, field: string): string {
  const current = Array.isArray(existing) ? existing.join(', ') : existing === undefined ? '' : String(existing);
  const fields = current.split(',').map((f) => f.trim()).filter(Boolean);
  if (fields.some((f) => f === '*' || f.toLowerCase() === field.toLowerCase())) return fields.join(', ');
  return [...fields, field].join(', ');
}

/** CORS for every response, and a 204 for preflights (OPTIONS with Access-Control-Request-Method). */
export function cors(options: CorsOptions = {}): RequestHandler {
  const origins = options.origins ?? '*';
  const allowList = origins === '*' ? undefined : new Set(origins.map((o) => o.toLowerCase()));
  const maxAge = String(options.maxAgeSeconds ?? 600);

  return (req, res, next) => {
    const origin = req.get('origin');
    let allowed: string | undefined;
    if (!allowList) {
      allowed = '*';
    } else {
      // The answer depends on the Origin header, so caches must key on it even when it is refused.
      res.setHeader('Vary', appendVary(res.getHeader('Vary'), 'Origin'));
      if (origin && allowList.has(origin.toLowerCase())) allowed = origin;
    }

    const isPreflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    // '*' is the same for everyone, so it goes on every answer; an echoed origin only when one was sent.
    const grant = allowed === '*' || (allowed !== undefined && origin !== undefined);
    if (grant) {
      res.setHeader('Access-Control-Allow-Origin', allowed!);
      if (!isPreflight) res.setHeader('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS.join(', '));
    }

    if (!isPreflight) {
      next();
      return;
    }
    // A preflight is answered here whatever the path: it must not hit auth (no token) or the 405 handler.
    if (grant) {
      res.setHeader('Access-Control-Allow-Methods', CORS_ALLOW_METHODS.join(', '));
      res.setHeader('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS.join(', '));
      res.setHeader('Access-Control-Max-Age', maxAge);
    }
    // A refused origin still gets 204: the missing Allow-Origin header is what makes the browser refuse.
    res.status(204).setHeader('Content-Length', '0');
    res.end();
  };
}
