// Headers a middleware gives every answer of a kind the same way (helmet's, the CORS grant of one Origin), worked out
// once by running that middleware itself on a probe, then set on each answer without running it again: its
// per-request work (helmet's chain of small middlewares, the cors package's options merged and its headers built on
// every request) is a measurable share of a replayed read. The middleware stays the one source of these headers:
// nothing here names a header or a value.
import type { OutgoingHttpHeader } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';

/**
 * What a middleware did to a response's headers, in order: set one (a value) or remove one (undefined); and the
 * headers it read (Vary, which it appends to), absent on the probe: where a response has one of those, the
 * middleware itself runs.
 */
export interface HeaderSet {
  readonly done: readonly (readonly [name: string, value: OutgoingHttpHeader | undefined])[];
  readonly read: readonly string[];
}

/**
 * The headers `middleware` sets when it handles `req` on a response with no header yet and then calls `next()` at
 * once, having done nothing else: undefined when it does anything else (answers, reads the body, waits, fails).
 */
export function headersSetBy(middleware: RequestHandler, req: Pick<Request, 'method' | 'headers'>): HeaderSet | undefined {
  const held = new Map<string, [string, OutgoingHttpHeader]>();
  const done: [string, OutgoingHttpHeader | undefined][] = [];
  const read = new Set<string>();
  let other = false;
  const probe = {
    setHeader(name: string, value: OutgoingHttpHeader) {
      held.set(name.toLowerCase(), [name, value]);
      done.push([name, value]);
      return probe;
    },
    getHeader: (name: string) => (read.add(name.toLowerCase()), held.get(name.toLowerCase())?.[1]),
    hasHeader: (name: string) => (read.add(name.toLowerCase()), held.has(name.toLowerCase())),
    removeHeader(name: string) {
      held.delete(name.toLowerCase());
      done.push([name, undefined]);
    },
  };
  // Whatever else a middleware may reach for on a response is absent from the probe: using it throws, caught below.
  const probeReq = { method: req.method, headers: req.headers } as Request;
  let passed = false;
  try {
    middleware(probeReq, probe as unknown as Response, (error?: unknown) => {
      if (error !== undefined) other = true;
      passed = true;
    });
  } catch {
    other = true;
  }
  return passed && !other ? { done, read: [...read] } : undefined;
}

/**
 * Sets a header set on a response, as the middleware that made it would: false, setting nothing, when the response
 * already has a header the middleware read (its answer could differ there).
 */
export function applyHeaders(res: Response, headers: HeaderSet): boolean {
  const { read, done } = headers;
  // Indexed loops: this runs for every answer, and iterating (and destructuring) allocates on each.
  for (let i = 0; i < read.length; i++) if (res.hasHeader(read[i]!)) return false;
  for (let i = 0; i < done.length; i++) {
    const [name, value] = done[i]!;
    if (value === undefined) res.removeHeader(name);
    else res.setHeader(name, value);
  }
  return true;
}

/**
 * `middleware` as one header set made once, for a middleware whose headers depend on nothing in the request
 * (helmet with fixed directives). One that does depend on it, or does more, runs as it is.
 */
export function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const headers = headersSetBy(middleware, { method: 'GET', headers: {} });
  if (headers === undefined) return middleware;
  return (req, res, next) => {
    if (!applyHeaders(res, headers)) return middleware(req, res, next);
    next();
  };
}

/** At most this many distinct keys' header sets are kept (a key is the client's to choose); then they start over. */
const MAX_KEPT_SETS = 256;

/**
 * `middleware`, with the header set it makes for each `keyOf(req)` made once, by running it on `probeOf(key)`: for a
 * middleware whose headers depend on what the key holds alone (the cors package's, on the Origin, for any request but
 * an OPTIONS). A request whose key is undefined, or that the probe shows the middleware does more for, runs it as it is.
 */
export function headersByKey(
  middleware: RequestHandler,
  keyOf: (req: Request) => string | undefined,
  probeOf: (key: string) => Pick<Request, 'method' | 'headers'>,
): RequestHandler {
  const kept = new Map<string, HeaderSet | null>();
  return (req, res, next) => {
    const key = keyOf(req);
    if (key === undefined) return middleware(req, res, next);
    let headers = kept.get(key);
    if (headers === undefined) {
      if (kept.size >= MAX_KEPT_SETS) kept.clear();
      headers = headersSetBy(middleware, probeOf(key)) ?? null;
      kept.set(key, headers);
    }
    if (headers === null || !applyHeaders(res, headers)) return middleware(req, res, next);
    next();
  };
}
