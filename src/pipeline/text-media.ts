import type { Reply } from '../http/reply.js';
import type { OperationFacts } from '../contract/document/operation-facts.js';

/**
 * What the response validator does for JSON, for a text answer (it checks res.json bodies only): a media type the
 * operation does not document for the status is a bug, thrown so the error handler answers 500 and logs it.
 */
export function checkTextMedia(facts: OperationFacts | undefined, operationId: string, reply: Reply & { type?: string }): void {
  if (reply.type === undefined) return;
  if (facts?.textMedia?.get(reply.status)?.has(reply.type) && typeof reply.body === 'string') return;
  throw new Error(`${operationId} answered ${reply.status} as ${reply.type}, which the contract does not document for it`);
}
