// The tolerant reader: a query parameter or body field the contract does not name is ignored, as the real
// service ignores what it does not validate, and the answer says so (Sandbox-Ignored-Fields, the journal). In
// strict mode the same fields are 422s instead, reported together with whatever else the validator finds.
import type { Request, RequestHandler } from 'express';
import { keptIgnored } from '../../observe/ignored-fields.js';
import type { ValidatorError } from '../../http/validation-errors.js';
import type { ContractDocument } from '../document/load-contract.js';
import { requestShapes, type RequestShape } from './request-shape.js';
import { derefIn, unknownFields, withoutPaths } from './unknown-fields.js';

function bodySchemaOf(req: Request, shape: RequestShape): unknown {
  if (shape.body.size === 0 || req.body === undefined || req.body === null) return undefined;
  const type = req.is([...shape.body.keys()]);
  return typeof type === 'string' ? shape.body.get(type) : undefined;
}

/** The ignored fields as validator errors, so strict mode answers them in the validator's 422. */
function asValidatorErrors(query: string[], body: string[][]): ValidatorError[] {
  return [
    ...query.map((name) => ({ path: `/query/${name}`, message: `Unknown query parameter '${name}'` })),
    ...body.map((path) => ({
      path: `/body/${path.join('/')}`,
      message: 'must NOT have additional properties',
      errorCode: 'additionalProperties.openapi.validation',
    })),
  ];
}

/**
 * Wraps express-openapi-validator's request validation (`validateRequest`): before it runs, the fields the
 * contract does not name (of the operation the request matched, req.state) are found; tolerant, they are taken out
 * of the request and recorded in its state; strict (`strictOf(req)`), they are added to the validator's errors (or
 * become the only ones).
 */
export function tolerantReader(doc: ContractDocument, validateRequest: RequestHandler, strictOf: (req: Request) => boolean): RequestHandler {
  const shapes = requestShapes(doc);
  const deref = derefIn(doc);
  return (req, res, next) => {
    const operationId = req.state?.operation?.id;
    const shape = operationId === undefined ? undefined : shapes.get(operationId);
    if (!shape) return validateRequest(req, res, next);
    const query = req.query as Record<string, unknown>;
    const known = shape.query;
    const queryIgnored = known ? Object.keys(query).filter((name) => !known.has(name)) : [];
    const bodySchema = bodySchemaOf(req, shape);
    const bodyIgnored = bodySchema === undefined ? [] : unknownFields(req.body, [bodySchema], deref);
    if (queryIgnored.length === 0 && bodyIgnored.length === 0) return validateRequest(req, res, next);

    if (strictOf(req)) {
      const extra = asValidatorErrors(queryIgnored, bodyIgnored);
      return validateRequest(req, res, (error?: unknown) => {
        if (error === undefined || error === null)
          return next(Object.assign(new Error('The request has fields the contract does not name.'), { status: 400, errors: extra }));
        const found = error as { status?: number; errors?: unknown };
        if (found.status === 400 && Array.isArray(found.errors)) found.errors = [...found.errors, ...extra];
        next(error);
      });
    }

    if (req.state)
      req.state.ignored = keptIgnored({
        fields: [...queryIgnored.map((name) => `query.${name}`), ...bodyIgnored.map((path) => ['body', ...path].join('.'))],
        received: { query, body: req.body },
      });
    if (queryIgnored.length > 0) {
      const kept = Object.fromEntries(Object.entries(query).filter(([name]) => known!.has(name)));
      // Express 5 parses req.query from the URL on every read; an own property is what the validator and handler see.
      Object.defineProperty(req, 'query', { value: kept, writable: true, configurable: true, enumerable: true });
    }
    // The journal keeps the body as received; the validator and the handler get a copy without the ignored fields.
    if (bodyIgnored.length > 0) req.body = withoutPaths(req.body, bodyIgnored);
    return validateRequest(req, res, next);
  };
}
