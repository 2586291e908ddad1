// Prefer: code=<status> answers a documented status with the contract's own example, after the request has
// passed authentication and validation (a client asking for a 200 with a bad token still gets its 401): the knobs
// step of the pipeline (src/pipeline/handle-request.ts), between the 422 verdict and the handler. It keys on the
// operation the request matched, so a knob on an operation that documents no 422 can be ignored instead of
// producing an answer the contract does not allow.
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { allowHeader } from '../http/allow-header.js';
import { unprocessable } from '../http/errors.js';
import { reply, type Reply } from '../http/reply.js';
import type { PreferResult } from './prefer-header.js';

/** Header that says a knob was ignored (and why) on an operation that cannot answer 422. */
export const PREFER_IGNORED_HEADER = 'Sandbox-Prefer-Ignored';

interface DocumentedStatus {
  /** The body to answer, or undefined for a status with no JSON content (204). */
  body: unknown;
  /** Headers the status carries by definition (Allow on a 405, the ones its response documents as required). */
  headers?: Record<string, string>;
}

/** What the knobs need to know about one operation. */
export interface KnobFacts {
  /** Knobs apply to the versioned API only; the control plane is the test harness, not the API under test. */
  knobs: boolean;
  documents422: boolean;
  /** Whether the operation honours `retailer-fault`: it documents the retailer's timeout (504), which only that knob causes. */
  retailerFault: boolean;
  statuses: Map<number, DocumentedStatus>;
}

/** The response the timeout fault answers; an operation documenting it is one the knob applies to (the relay). */
const RETAILER_TIMEOUT = '#/components/responses/RetailerTimeout';

type Obj = Record<string, unknown>;

/**
 * The headers a response documents as always sent (`required`), with their examples: a client's retry logic reads
 * Retry-After on a 429 and the relay's X-Retailer-Status on its 200, asked-for or real.
 */
function requiredHeadersOf(doc: ContractDocument, response: Obj): Record<string, string> | undefined {
  if (!isObj(response.headers)) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(response.headers)) {
    const h = deref(doc, header);
    if (isObj(h) && h.required === true && h.example !== undefined) headers[name] = String(h.example);
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
}

function exampleOf(doc: ContractDocument, response: Obj): DocumentedStatus {
  const headers = requiredHeadersOf(doc, response);
  const withHeaders = (body: unknown): DocumentedStatus => (headers ? { body, headers } : { body });
  const media = isObj(response.content) ? deref(doc, response.content['application/json']) : undefined;
  if (!isObj(media)) return withHeaders(undefined);
  if (media.example !== undefined) return withHeaders(media.example);
  const first = isObj(media.examples) ? Object.values(media.examples)[0] : undefined;
  const value = isObj(first) ? (deref(doc, first) as Obj).value : undefined;
  // A documented error without an example still answers the Error shape.
  return withHeaders(value ?? { message: String(response.description ?? 'Answered on request (Prefer: code).') });
}

/** Per operationId: the statuses it documents with their example bodies, and whether knobs apply. */
export function knobFacts(doc: ContractDocument): Map<string, KnobFacts> {
  const out = new Map<string, KnobFacts>();
  const operations = listOperations(doc);
  for (const op of operations) {
    const statuses = new Map<number, DocumentedStatus>();
    for (const status of op.statuses) {
      const response = deref(doc, op.operation.responses?.[String(status)]);
      if (isObj(response)) statuses.set(status, exampleOf(doc, response));
    }
    const allow = statuses.get(405);
    // A 405 names the methods the contract has for the path, like the validator's own.
    if (allow) allow.headers = { ...allow.headers, Allow: allowHeader(operations.filter((other) => other.path === op.path).map((other) => other.method)) };
    // The versioned API is what the bearer scheme secures; the control plane declares its own callers.
    const timeout = op.operation.responses?.['504'] as { $ref?: unknown } | undefined;
    out.set(op.operationId, { knobs: op.secured, documents422: statuses.has(422), retailerFault: timeout?.$ref === RETAILER_TIMEOUT, statuses });
  }
  return out;
}

function withHeader(result: Reply | Promise<Reply>, name: string, value: string): Reply | Promise<Reply> {
  if (!value) return result;
  const add = (r: Reply): Reply => {
    const existing = r.headers?.[name];
    return { ...r, headers: { ...r.headers, [name]: existing ? `${value}, ${existing}` : value } };
  };
  return result instanceof Promise ? result.then(add) : add(result);
}

/** Everything but the retailer fault, which only the relay can honour (it names it in its own Preference-Applied). */
function appliedHere(applied: string): string {
  return applied
    .split(', ')
    .filter((p) => p && !p.startsWith('retailer-fault='))
    .join(', ');
}

/** The knobs step: runs the handler, or answers what the request's knobs ask for instead. */
export type PreferCodeStep = (operationId: string, prefer: PreferResult, handler: () => Reply | Promise<Reply>) => Reply | Promise<Reply>;

/**
 * The Prefer knobs in front of an operation's handler: `code` answers the documented example, a bad knob or an
 * undocumented code answers 422 naming the knob (ignored, with a Sandbox-Prefer-Ignored header, where the operation
 * documents no 422), and Preference-Applied names what was honoured. An operation without knobs runs its handler.
 */
export function preferCodeStep(doc: ContractDocument): PreferCodeStep {
  // Worked out on the first request that sends knobs: most requests send none, and a start need not wait for every
  // operation's examples.
  let byOperation: Map<string, KnobFacts> | undefined;
  return (operationId, parsed, handler) => {
    const facts = (byOperation ??= knobFacts(doc)).get(operationId);
    if (!facts?.knobs) return handler();
    if (!parsed.ok) {
      if (facts.documents422) unprocessable(parsed.error.errors, parsed.error.message);
      return withHeader(handler(), PREFER_IGNORED_HEADER, `${parsed.error.message} (${operationId} documents no 422)`);
    }
    const { code, applied } = parsed.knobs;
    if (code !== undefined) {
      const status = facts.statuses.get(code);
      if (status) return reply(code, structuredClone(status.body), { ...status.headers, 'Preference-Applied': appliedHere(applied) });
      const documented = [...facts.statuses.keys()].join(', ');
      const message = `The operation ${operationId} does not document status ${code}; documented: ${documented}.`;
      if (facts.documents422) unprocessable({ 'Prefer.code': [message] });
      return withHeader(handler(), PREFER_IGNORED_HEADER, message);
    }
    const answered = withHeader(handler(), 'Preference-Applied', appliedHere(applied));
    // Said, not silently dropped: a client testing its retry path on another operation would see a plain 200.
    if (parsed.knobs.retailerFault === undefined || facts.retailerFault) return answered;
    return withHeader(answered, PREFER_IGNORED_HEADER, `retailer-fault is honoured by the relay operations only (call/{endpoint}); ${operationId} ignored it.`);
  };
}
