import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { listOperations, type ContractDocument } from './document/load-contract.js';
import { matchedOperationId } from './document/operation-facts.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * Which requests have a JSON body to read: a JSON Content-Type on an operation (the one the request matched) whose
 * contract declares a request body. A body sent to an operation that takes none is never read, so it cannot answer
 * 400, 413 or 415 there, statuses such an operation does not document (the real service ignores what it does not read).
 */
export function readsJsonBody(doc: ContractDocument): (req: IncomingMessage) => boolean {
  const withBody = new Set(
    listOperations(doc)
      .filter((op) => op.operation.requestBody !== undefined)
      .map((op) => op.operationId),
  );
  // body-parser passes the request it was given: here always Express's, routed by the contract already.
  return (incoming) => {
    const req = incoming as Request;
    return withBody.has(matchedOperationId(req) ?? '') && !!req.is(JSON_TYPES);
  };
}
