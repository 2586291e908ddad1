import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs `handlers` in order as one middleware, the way Express would run them as separate layers: `next()` goes on,
 * `next(error)`, a throw or a rejected promise go to the caller's `next(error)`. One layer instead of many matters
 * on every request: the router's per-layer work (path matching, params, prefix trimming) is a measurable share of
 * a write, and none of it applies to middleware mounted at `/`.
 */
export function composeMiddleware(handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      // As Express: 'route' only skips the rest of a route's handlers (none here), 'router' leaves the group.
      if (error === 'router') return done();
      if (error !== undefined && error !== null && error !== false && error !== 'route') return done(error);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        const result = handler(req, res, next) as unknown;
        if (result && typeof (result as Promise<unknown>).then === 'function') {
          (result as Promise<unknown>).then(undefined, (reason: unknown) => next(reason ?? new Error('Rejected promise')));
        }
      } catch (thrown) {
        next(thrown);
      }
    };
    next();
  };
}

/**
 * A middleware for pages outside the versioned API, skipped in one check by every API request (`/2024-09/...`),
 * which would otherwise walk each of their routes. It decides no access and no observation: a request it lets pass
 * is answered by the contract's case-sensitive routing (an operation or 404), as it would be after the pages.
 */
export function outsideApi(handler: RequestHandler): RequestHandler {
  return (req, res, next) => (req.url.startsWith('/2024-09/') ? next() : handler(req, res, next));
}
