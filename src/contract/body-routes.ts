import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { listOperations, type ContractDocument } from './load-contract.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

function templateRegExp(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  // Express's defaults: case-insensitive, a trailing slash allowed.
  return new RegExp(`^${source}/?$`, 'i');
}

/**
 * Which requests have a JSON body to read: a JSON Content-Type on an operation whose contract declares a request
 * body. A body sent to an operation that takes none is never read, so it cannot answer 400, 413 or 415 there,
 * statuses such an operation does not document (the real service ignores what it does not read).
 */
export function readsJsonBody(doc: ContractDocument): (req: IncomingMessage) => boolean {
  const withBody = listOperations(doc)
    .filter((op) => op.operation.requestBody !== undefined)
    .map((op) => ({ method: op.method, pattern: templateRegExp(op.path) }));
  // body-parser passes the request it was given: here always Express's, which knows its path and type.
  return (incoming) => {
    const req = incoming as Request;
    return withBody.some((op) => op.method === req.method && op.pattern.test(req.path)) && !!req.is(JSON_TYPES);
  };
}
