import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { unprocessable } from './errors.js';
import { sendsNoBody } from './missing-body.js';

// Set on a request whose JSON body held nothing but whitespace or `null`: no body, as far as the contract goes.
const BLANK_BODY = Symbol('blank JSON body');

type MaybeBlank = IncomingMessage & { [BLANK_BODY]?: true; body?: unknown };

/**
 * Wraps the JSON body parser so a body of only whitespace or `null` is read as no body rather than as malformed
 * JSON (400): a client that serialises "nothing" sends one of these, and the operation's answer to it is the same
 * as to a missing body (requireBody below). Every other parse failure goes on as the parser's error.
 */
export function blankJsonIsNoBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (error !== undefined && isBlankParseFailure(error)) {
        req.body = undefined;
        (req as MaybeBlank)[BLANK_BODY] = true;
        return next();
      }
      next(error);
    });
}

function isBlankParseFailure(error: unknown): boolean {
  const { type, body } = error as { type?: unknown; body?: unknown };
  return type === 'entity.parse.failed' && typeof body === 'string' && /^\s*(null\s*)?$/.test(body);
}

/** True when the client sent no body: no bytes, whitespace only or `null` (the parsers read no bytes as `{}`). */
function sentNoBody(req: MaybeBlank): boolean {
  if (req[BLANK_BODY]) return true;
  const body = req.body;
  const empty = body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  return empty && sendsNoBody(req.headers);
}

/**
 * The step after the records are bound and before the validator's verdict: an operation whose contract says its
 * JSON body is required (`required`) answers 422 `The body field is required.` when none came. An operation that
 * takes another media type only is left to the validator's 415.
 */
export function requireBody(req: IncomingMessage & { body?: unknown }, required: boolean): void {
  if (required && sentNoBody(req)) unprocessable({ body: ['The body field is required.'] });
}

/**
 * Wraps request validation so an optional JSON body that did not come is not validated: the body is read as `{}`
 * everywhere (the handler, the journal), which need not be a valid instance of the operation's body schema (a
 * workspace bundle has required fields; creating a workspace takes none). `body` is what the operation takes.
 */
export function absentOptionalBodyUnchecked(validate: RequestHandler, bodyOf: (req: IncomingMessage) => { any: boolean; required: boolean } | undefined): RequestHandler {
  return (req, res, next) => {
    const body = bodyOf(req);
    if (!body?.any || body.required || !sentNoBody(req as MaybeBlank)) return validate(req, res, next);
    const read = req.body as unknown;
    req.body = undefined;
    validate(req, res, (error?: unknown) => {
      req.body = read;
      next(error);
    });
  };
}
