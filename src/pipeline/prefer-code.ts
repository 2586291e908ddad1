// Prefer: code=<status> answers a documented status with the contract's own example, after the request has
// passed authentication and validation (a client asking for a 200 with a bad token still gets its 401). It
// wraps the handler map rather than sitting in Express because only here is the operation known, so a knob on
// an operation that documents no 422 can be ignored instead of producing an answer the contract does not allow.
import { outsideTransaction, runsOutsideTransaction, type Handlers } from '../areas/handler-map.js';
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { allowHeader } from '../http/allow-header.js';
import type { Ctx } from '../areas/context.js';
import { unprocessable } from '../http/errors.js';
import { reply, type Reply } from '../http/reply.js';

/** Header that says a knob was ignored (and why) on an operation that cannot answer 422. */
export const PREFER_IGNORED_HEADER = 'Sandbox-Prefer-Ignored';

interface DocumentedStatus {
  /** The body to answer, or undefined for a status with no JSON content (204). */
  body: unknown;
  /** Headers the status carries by definition (Allow on a 405). */
  headers?: Record<string, string>;
}

/** What the knobs need to know about one operation. */
export interface KnobFacts {
  /** Knobs apply to the versioned API only; the control plane is the test harness, not the API under test. */
  knobs: boolean;
  documents422: boolean;
  statuses: Map<number, DocumentedStatus>;
}

type Obj = Record<string, unknown>;

function exampleOf(doc: ContractDocument, response: Obj): DocumentedStatus {
  const media = isObj(response.content) ? deref(doc, response.content['application/json']) : undefined;
  if (!isObj(media)) return { body: undefined };
  if (media.example !== undefined) return { body: media.example };
  const first = isObj(media.examples) ? Object.values(media.examples)[0] : undefined;
  const value = isObj(first) ? (deref(doc, first) as Obj).value : undefined;
  // A documented error without an example still answers the Error shape.
  return { body: value ?? { message: String(response.description ?? 'Answered on request (Prefer: code).') } };
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
    if (allow) allow.headers = { Allow: allowHeader(operations.filter((other) => other.path === op.path).map((other) => other.method)) };
    // The versioned API is what the bearer scheme secures; the control plane declares its own callers.
    out.set(op.operationId, { knobs: op.secured, documents422: statuses.has(422), statuses });
  }
  return out;
}

type AnyHandler = (input: { headers: Record<string, string | string[] | undefined> }, ctx: Ctx) => Reply | Promise<Reply>;

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

function wrap(operationId: string, handler: AnyHandler, facts: KnobFacts | undefined): AnyHandler {
  if (!facts?.knobs) return handler;
  return (input, ctx) => {
    const parsed = ctx.prefer;
    if (!parsed.ok) {
      if (facts.documents422) unprocessable(parsed.error.errors, parsed.error.message);
      return withHeader(handler(input, ctx), PREFER_IGNORED_HEADER, `${parsed.error.message} (${operationId} documents no 422)`);
    }
    const { code, applied } = parsed.knobs;
    if (code !== undefined) {
      const status = facts.statuses.get(code);
      if (status) return reply(code, structuredClone(status.body), { ...status.headers, 'Preference-Applied': appliedHere(applied) });
      const documented = [...facts.statuses.keys()].join(', ');
      const message = `The operation ${operationId} does not document status ${code}; documented: ${documented}.`;
      if (facts.documents422) unprocessable({ 'Prefer.code': [message] });
      return withHeader(handler(input, ctx), PREFER_IGNORED_HEADER, message);
    }
    return withHeader(handler(input, ctx), 'Preference-Applied', appliedHere(applied));
  };
}

/**
 * The handler map with the Prefer knobs in front of every versioned operation: `code` answers the documented
 * example, a bad knob or an undocumented code answers 422 naming the knob (ignored, with a Sandbox-Prefer-Ignored
 * header, where the operation documents no 422), and Preference-Applied names what was honoured.
 */
export function withPreferKnobs(doc: ContractDocument, handlers: Handlers): Handlers {
  const facts = knobFacts(doc);
  const out: Record<string, unknown> = {};
  for (const [operationId, handler] of Object.entries(handlers as unknown as Record<string, AnyHandler>)) {
    const wrapped = wrap(operationId, handler, facts.get(operationId));
    out[operationId] = wrapped !== handler && runsOutsideTransaction(handler) ? outsideTransaction(wrapped as never) : wrapped;
  }
  return out as Handlers;
}
