// What the pipeline decides per operation, read once from the contract: who may call it, whether it creates a
// workspace (and so counts against the per-address creation limit), and whether the journal keeps its requests.
// Every such decision keys on the operation the request matched, never on how its path is spelled.
import { deref, isObj, listOperations, type ContractDocument, type ContractOperation } from './load-contract.js';

/**
 * Who may call an operation. `token`: the versioned API, secured by the contract's bearer scheme (a token of any
 * world, acting in that world). `anyone`: no token needed. `workspace`: the control plane acting on one world, with
 * a token of that workspace or the admin token (locally, also without a token). `owner`: as `workspace`, but of the
 * workspace's tokens only its owner's (what exports, resets or deletes the world, or adds users to it).
 */
export type Caller = 'token' | 'anyone' | 'workspace' | 'owner';

/** The facts of one operation the pipeline acts on. */
export interface OperationFacts {
  caller: Caller;
  /** Counts against the per-address creation limit (`x-sandbox-creates-workspace`). */
  createsWorkspace: boolean;
  /** Kept in the journal (`x-sandbox-journaled: false` keeps reads of the journal and coverage out of it). */
  journaled: boolean;
  /** Takes the Prefer knobs (the versioned API: the control plane is the harness, not the API under test). */
  knobs: boolean;
  /** The statuses it documents (a 403 becomes 404 where it documents none). */
  statuses: ReadonlySet<number>;
  /**
   * What body it takes: `any` is false for one that takes none (a body sent to it is never read, so it cannot answer
   * 400, 413 or 415 there); JSON, required or not; multipart.
   */
  body: { any: boolean; json: boolean; required: boolean; multipart: boolean };
  /** Its JSON body may hold BUNDLE_MAX_BYTES (`x-sandbox-body-limit: bundle`: a workspace bundle) rather than BODY_LIMIT_BYTES. */
  bodyLimit: 'default' | 'bundle';
  /**
   * Per status, the media types other than JSON it documents (a report as text/markdown): the response validator
   * checks JSON answers only, so a text answer is checked against these.
   */
  textMedia?: ReadonlyMap<number, ReadonlySet<string>>;
}

const CALLERS = new Set<string>(['anyone', 'workspace', 'owner']);

/**
 * The facts of every operation, by operationId. An operation the contract leaves unsecured must say who may call it
 * (`x-sandbox-access`): the start is refused otherwise, so a new control-plane operation is a decision, never open
 * by default.
 */
export function operationFacts(doc: ContractDocument): Map<string, OperationFacts> {
  const table = new Map<string, OperationFacts>();
  const undeclared: string[] = [];
  for (const op of listOperations(doc)) {
    const declared = op.operation['x-sandbox-access'];
    let caller: Caller;
    if (op.secured) caller = 'token';
    else if (typeof declared === 'string' && CALLERS.has(declared)) caller = declared as Caller;
    else {
      undeclared.push(op.operationId);
      continue;
    }
    table.set(op.operationId, {
      caller,
      createsWorkspace: op.operation['x-sandbox-creates-workspace'] === true,
      journaled: op.operation['x-sandbox-journaled'] !== false,
      knobs: op.secured,
      statuses: new Set(op.statuses),
      body: bodyOf(doc, op.operation.requestBody),
      bodyLimit: op.operation['x-sandbox-body-limit'] === 'bundle' ? 'bundle' : 'default',
      textMedia: textMediaOf(doc, op),
    });
  }
  if (undeclared.length) throw new Error(`operations without a token and without x-sandbox-access (anyone, workspace or owner): ${undeclared.join(', ')}`);
  return table;
}

function bodyOf(doc: ContractDocument, requestBody: unknown): OperationFacts['body'] {
  const body = deref(doc, requestBody);
  const content = isObj(body) && isObj(body.content) ? body.content : {};
  const json = content['application/json'] !== undefined;
  return { any: isObj(body), json, required: json && isObj(body) && body.required === true, multipart: content['multipart/form-data'] !== undefined };
}

function textMediaOf(doc: ContractDocument, op: ContractOperation): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const status of op.statuses) {
    const response = deref(doc, op.operation.responses?.[String(status)]);
    const types = isObj(response) && isObj(response.content) ? Object.keys(response.content).filter((t) => t !== 'application/json') : [];
    if (types.length) out.set(status, new Set(types));
  }
  return out;
}
