// express-openapi-validator as it ships, as one step of the pipeline: its middleware array (routing again, request
// validation, the response check armed on res.json) runs whole, in its own order, behind the tolerant reader. The
// pipeline authenticates, parses bodies and calls handlers itself, so the validator is told to do none of those.
// The array runs as one middleware (composeMiddleware, which the app's own chain uses too).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ContractDocument } from '../contract/document/load-contract.js';
import { tolerantReader } from './tolerant-reader.js';
import { absentOptionalBodyUnchecked } from './read-body.js';
import { bodySchemas, narrowOneOfErrors } from './one-of-errors.js';
import { arrayBoundChecks } from './array-bounds.js';
import type { ValidatorError } from '../http/validation-errors.js';
import { HttpError, summarize, type FieldErrors } from '../http/errors.js';

/** The verdict on one request. */
export interface Verdict {
  /** Undefined when the request is valid, else the error to answer (422 and kin). */
  error: unknown;
  /** The body could not be read (`error` says why): nothing else of the input is looked at. */
  unread?: boolean;
  /**
   * Arms the check of the answer (the validator's hook on res.json), for the handler's answer only: a request
   * refused before its handler runs answers a refusal, not the operation's response.
   */
  armResponseCheck(): void;
}

/** The validator's step: checks a request, and holds the check of the answer the handler will send. */
export interface ContractValidator {
  /**
   * Runs the validator over the request. A response that breaks the contract is found later, when it is sent: that
   * error goes to `late`.
   */
  check(req: Request, res: Response, late: (error: unknown) => void): Promise<Verdict>;
  /**
   * Compiles one component schema (`#/components/schemas/<name>`) of the request bodies' or the answers' checks, which
   * every check that refers to it then shares (the validator's patch, patches/README.md). False when the validator
   * has not made that side's checks yet (before its first request) or knows no such schema.
   */
  compileComponent(side: ComponentSide, name: string): boolean;
}

/** Which of the validator's checks a component schema is compiled for. */
export type ComponentSide = 'request' | 'response';

/** What the validator's patch adds to its middleware array (absent from an unpatched validator). */
type CompilesComponents = { compileComponent?: (side: ComponentSide, name: string) => boolean };

/**
 * What the step needs to know: the contract, the validator's middleware over it (shared by every app of the process,
 * src/compiled-contract.ts), and whether a request's unknown fields are refused (strict).
 */
export interface ContractValidatorOptions {
  doc: ContractDocument;
  middleware: readonly RequestHandler[];
  strictOf: (req: Request) => boolean;
}

/** The validator's step over a contract, with documented options only. */
export function contractValidator({ doc, middleware, strictOf }: ContractValidatorOptions): ContractValidator {
  // An optional body that did not come is read as `{}`, which the validator does not see (src/pipeline/read-body.ts).
  const step = absentOptionalBodyUnchecked(tolerantReader(doc, composeMiddleware(middleware), strictOf), (req) => req.state?.operation?.facts.body);
  const bodies = bodySchemas(doc);
  // A body that matches no branch of a oneOf: the errors of the branch it meant (src/pipeline/one-of-errors.ts).
  const narrow = (req: Request, error: unknown) => {
    const found = error as { status?: number; errors?: ValidatorError[] } | undefined;
    const schema = bodies.get(req.state?.operation?.id ?? '');
    if (schema !== undefined && found?.status === 400 && Array.isArray(found.errors)) found.errors = narrowOneOfErrors(doc, schema, req, found.errors);
  };
  const { compileComponent } = middleware as CompilesComponents;
  const boundChecks = arrayBoundChecks(doc);
  return {
    compileComponent: (side, name) => compileComponent?.(side, name) ?? false,
    check: (req, res, late) =>
      new Promise((resolve) => {
        // An array past its bound is the verdict, before the validator checks each of its items (src/pipeline/array-bounds.ts).
        const bound = boundChecks.get(req.state?.operation?.id ?? '')?.(req.body);
        if (bound) return resolve({ error: new HttpError(422, summarize(bound), bound), armResponseCheck: () => {} });
        const unchecked = res.json;
        let settled = false;
        step(req, res, (error?: unknown) => {
          if (settled) {
            // What comes after the verdict is the response check's: the answer broke the contract.
            if (error !== undefined) {
              if (req.state) req.state.responseCheck = 'failed';
              late(error);
            }
            return;
          }
          settled = true;
          narrow(req, error);
          // The validator's response check wraps res.json; it is put back only for the handler's answer.
          const checked = res.json;
          res.json = unchecked;
          const nonFinite = error === undefined ? nonFiniteNumberErrors(req.query) : undefined;
          const verdict = error ?? (nonFinite && new HttpError(422, summarize(nonFinite), nonFinite));
          resolve({ error: verdict ?? undefined, armResponseCheck: () => void (res.json = noting(req, res, checked)) });
        });
      }),
  };
}

/**
 * The checked res.json, noting in the request's state that the answer passed its check: the validator checks an
 * answer below 500 as it is sent, and one that fails goes to `late` (noted there) instead of being sent.
 */
function noting(req: Request, res: Response, checked: Response['json']): Response['json'] {
  return function (this: Response, body?: unknown) {
    const status = res.statusCode;
    const sent = checked.call(this, body);
    if (status < 500 && req.state && req.state.responseCheck === undefined) req.state.responseCheck = 'passed';
    return sent;
  };
}

/**
 * Field errors for numbers the validator coerced from query text into Infinity or -Infinity (`1e309`, `Infinity`).
 * Ajv's coercion turns such text into a number and then skips its type and bound checks for non-finite values, so
 * `per_page=Infinity` would pass `maximum: 100`. A non-finite number is never a valid JSON number, so it is a 422.
 */
export function nonFiniteNumberErrors(values: unknown, prefix = ''): FieldErrors | undefined {
  const errors: FieldErrors = Object.create(null) as FieldErrors;
  collect(values, prefix, errors);
  return Object.keys(errors).length > 0 ? errors : undefined;
}

function collect(value: unknown, field: string, errors: FieldErrors): void {
  if (typeof value === 'number' && !Number.isFinite(value)) {
    errors[field] = [`The ${field} field must be a finite number.`];
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) collect(inner, field ? `${field}.${key}` : key, errors);
  }
}

/**
 * Runs `handlers` in order as one middleware, the way Express would run them as separate layers: `next()` goes on,
 * `next(error)`, a throw or a rejected promise go to the caller's `next(error)`. One layer instead of many matters
 * on every request: the router's per-layer work (path matching, params, prefix trimming) is a measurable share of
 * a write, and none of it applies to middleware mounted at `/`.
 */
export function composeMiddleware(handlers: readonly RequestHandler[]): RequestHandler {
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
