// The tolerant reader: a query parameter or body field the contract does not name is ignored, as the real
// service ignores what it does not validate, and the answer says so (Sandbox-Ignored-Fields, the journal). In
// strict mode the same fields are 422s instead, reported together with whatever else the validator finds.
// One module for one concern, in three parts: what the contract names in each operation's request (its shape),
// which fields of a request it does not name (its eye), and the step in front of the validator that acts on them.
import type { Request, RequestHandler } from 'express';
import { keptIgnored } from '../observe/ignored-fields.js';
import type { ValidatorError } from '../http/validation-errors.js';
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';

/** The parts of an operation's request the tolerant reader compares a request with. */
export interface RequestShape {
  /** Query parameter names the contract names; undefined when any name is accepted (a free-form query object). */
  query: Set<string> | undefined;
  /** Body schema by media type ('application/json', 'multipart/form-data'). */
  body: Map<string, unknown>;
}

type Obj = Record<string, unknown>;

/** A query parameter that takes every name: a form-style, exploded object (the default style for a query object). */
function takesAnyName(parameter: Obj, deref: Deref): boolean {
  const schema = deref(parameter.schema);
  const isObjectSchema = schema?.type === 'object' || (Array.isArray(schema?.type) && schema.type.includes('object'));
  return isObjectSchema && (parameter.style ?? 'form') === 'form' && parameter.explode !== false;
}

/** Every operation's request shape, by operationId. */
export function requestShapes(doc: ContractDocument): Map<string, RequestShape> {
  const deref = derefIn(doc);
  const shapes = new Map<string, RequestShape>();
  for (const op of listOperations(doc)) {
    const pathItem = doc.paths[op.path] as Obj;
    const parameters = [...((pathItem.parameters as unknown[]) ?? []), ...((op.operation.parameters as unknown[]) ?? [])]
      .map((p) => deref(p))
      .filter((p): p is Obj => p !== undefined && p.in === 'query');
    const freeForm = op.operation['x-eov-allow-unknown-query-parameters'] === true || parameters.some((p) => takesAnyName(p, deref));
    const body = new Map<string, unknown>();
    const content = deref(op.operation.requestBody)?.content;
    if (isObj(content)) for (const [type, media] of Object.entries(content)) if (isObj(media)) body.set(type, media.schema);
    shapes.set(op.operationId, { query: freeForm ? undefined : new Set(parameters.map((p) => String(p.name))), body });
  }
  return shapes;
}

// The eye: which fields of a request the contract does not name. The real service (Laravel) ignores whatever it
// does not validate, so the sandbox finds those fields, reports them and takes them out before
// express-openapi-validator sees the request. Only objects the contract describes field by field are searched: a
// free-form object (no `properties`, or `additionalProperties` true or a schema) names everything, and a shape the
// contract closes (`additionalProperties: false`, such as money) is left for the validator's 422.

type Schema = Record<string, unknown>;

/** Follows `$ref`s of the contract; answers undefined for anything that is not a schema object. */
export type Deref = (schema: unknown) => Schema | undefined;

/**
 * A `$ref` follower over the contract (local refs only, as the contract has). The document does not change while
 * the sandbox runs, so each schema node's target is looked up once and remembered: a request's walk reads the memo.
 */
export function derefIn(doc: ContractDocument): Deref {
  const followed = new WeakMap<object, Schema | undefined>();
  return (schema) => {
    if (typeof schema !== 'object' || schema === null) return undefined;
    if (followed.has(schema)) return followed.get(schema);
    const node = deref(doc, schema);
    const target = isObj(node) ? node : undefined;
    followed.set(schema, target);
    return target;
  };
}

/** Nesting beyond this is not searched: the validator still checks it, and a hostile body cannot make us recurse. */
const MAX_DEPTH = 64;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A schema and every schema its allOf/oneOf/anyOf may apply with, dereferenced. */
function members(schemas: readonly unknown[], deref: Deref): Schema[] {
  const out: Schema[] = [];
  const visit = (candidate: unknown, depth: number) => {
    const schema = deref(candidate);
    if (!schema || depth > 8) return;
    out.push(schema);
    for (const key of ['allOf', 'oneOf', 'anyOf'] as const) {
      const list = schema[key];
      if (Array.isArray(list)) for (const member of list) visit(member, depth + 1);
    }
  };
  for (const schema of schemas) visit(schema, 0);
  return out;
}

const describesObject = (s: Schema) =>
  isObject(s.properties) ||
  'additionalProperties' in s ||
  'patternProperties' in s ||
  s.type === 'object' ||
  (Array.isArray(s.type) && s.type.includes('object'));

/** A key's verdict under a plan: not named by the contract, or named and walked with `plan` (none: not walked). */
interface KeyVerdict {
  unknown: boolean;
  plan: Plan | undefined;
}

/** Keys remembered per plan: a free-form object's keys are the client's to choose, so the memo stops growing here. */
const MAX_REMEMBERED_KEYS = 256;

/**
 * What a list of candidate schemas says about a node, worked out once and remembered: its members, what an array's
 * items are walked with, whether an object's fields are read tolerantly, and each key's verdict. A body of many
 * records of the same shape (a workspace bundle) is then walked at the cost of a lookup per field, not a
 * dereference, a filter and a copy of the path per field. The plans of a schema form a finite tree (a key the
 * contract does not name gets no plan of its own; free-form fields share one), so they are kept for the process.
 */
class Plan {
  private readonly all: Schema[];
  private readonly objects: Schema[];
  private readonly tolerant: boolean;
  private itemsPlan: Plan | null | undefined;
  private openPlan: Plan | null | undefined;
  private readonly keys = new Map<string, KeyVerdict>();

  constructor(
    candidates: readonly unknown[],
    private readonly deref: Deref,
  ) {
    this.all = members(candidates, deref);
    this.objects = this.all.filter(describesObject);
    // Any member that speaks about other fields (free-form or closed) or names none decides for itself.
    this.tolerant =
      this.objects.length > 0 && this.objects.every((s) => isObject(s.properties) && !('additionalProperties' in s) && !('patternProperties' in s));
  }

  /** The plan an array's items are walked with; undefined when no member says what they are. */
  items(): Plan | undefined {
    if (this.itemsPlan === undefined) {
      const items = this.all.map((s) => s.items).filter((s) => s !== undefined);
      this.itemsPlan = items.length > 0 ? new Plan(items, this.deref) : null;
    }
    return this.itemsPlan ?? undefined;
  }

  /** What a key of an object is: unknown (readOnly counts as not named), or walked with the plan of what names it. */
  key(key: string): KeyVerdict {
    const remembered = this.keys.get(key);
    if (remembered) return remembered;
    const named = this.objects
      .map((s) => (isObject(s.properties) && Object.hasOwn(s.properties, key) ? this.deref(s.properties[key]) : undefined))
      .filter((s): s is Schema => s !== undefined);
    const readOnly = named.length > 0 && named.every((s) => s.readOnly === true);
    let verdict: KeyVerdict;
    if (this.tolerant && (named.length === 0 || readOnly)) verdict = { unknown: true, plan: undefined };
    else if (named.length > 0) verdict = { unknown: false, plan: new Plan(named, this.deref) };
    else verdict = { unknown: false, plan: this.open() };
    if (this.keys.size < MAX_REMEMBERED_KEYS) this.keys.set(key, verdict);
    return verdict;
  }

  /** The plan of the fields no member names, from the members' `additionalProperties` schemas. */
  private open(): Plan | undefined {
    if (this.openPlan === undefined) {
      const open = this.objects.map((s) => s.additionalProperties).filter(isObject);
      this.openPlan = open.length > 0 ? new Plan(open, this.deref) : null;
    }
    return this.openPlan ?? undefined;
  }
}

/** The root plans of each contract's body schemas (a test's ad-hoc schema list gets a plan of its own). */
const rootPlans = new WeakMap<Deref, WeakMap<object, Plan>>();

function rootPlan(schemas: readonly unknown[], deref: Deref): Plan {
  const [only] = schemas;
  if (schemas.length !== 1 || typeof only !== 'object' || only === null) return new Plan(schemas, deref);
  let plans = rootPlans.get(deref);
  if (!plans) rootPlans.set(deref, (plans = new WeakMap()));
  let plan = plans.get(only);
  if (!plan) plans.set(only, (plan = new Plan(schemas, deref)));
  return plan;
}

/** A path walked so far, as links to its parent: only a path that is reported is spelled out. */
interface PathLink {
  parent: PathLink | undefined;
  key: string;
}

const spelled = (link: PathLink | undefined): string[] => {
  const path: string[] = [];
  for (let at = link; at; at = at.parent) path.push(at.key);
  return path.reverse();
};

/**
 * The fields of `value` (at any depth) that the schemas do not name, as paths of keys and array indexes. A property the contract
 * marks readOnly counts as not named: it belongs to answers, and the validator would refuse it in a request.
 */
export function unknownFields(value: unknown, schemas: readonly unknown[], deref: Deref): string[][] {
  const found: string[][] = [];
  const walk = (node: unknown, plan: Plan | undefined, path: PathLink | undefined, depth: number) => {
    if (depth > MAX_DEPTH || plan === undefined) return;
    if (Array.isArray(node)) {
      const items = plan.items();
      if (items) for (let index = 0; index < node.length; index++) walk(node[index], items, { parent: path, key: String(index) }, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    for (const key of Object.keys(node)) {
      const verdict = plan.key(key);
      const at = { parent: path, key };
      if (verdict.unknown) found.push(spelled(at));
      else walk(node[key], verdict.plan, at, depth + 1);
    }
  };
  if (schemas.length > 0) walk(value, rootPlan(schemas, deref), undefined, 0);
  return found;
}

/**
 * A copy of `value` without the fields at `paths`, copying only the objects and arrays along the paths, each once
 * however many paths pass through it (one copy per path made thousands of ignored fields cost the square of their
 * count): an ignored field may hold anything, however deep, and is dropped without being walked.
 */
export function withoutPaths(value: unknown, paths: readonly (readonly string[])[]): unknown {
  const trie: PathTrie = new Map();
  for (const path of paths) {
    let node = trie;
    for (const [i, key] of path.entries()) {
      const next = node.get(key);
      if (next === null) break;
      if (i === path.length - 1) node.set(key, null);
      else if (next === undefined) node.set(key, (node = new Map()));
      else node = next;
    }
  }
  return prune(value, trie);
}

/** The fields to drop: a key maps to null (drop it) or to the fields to drop inside it. */
type PathTrie = Map<string, PathTrie | null>;

function prune(node: unknown, trie: PathTrie): unknown {
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (![...trie.keys()].some((key) => Object.hasOwn(record, key))) return node;
  if (Array.isArray(node)) {
    const copy = [...node] as unknown as Record<string, unknown>;
    for (const [key, inner] of trie) {
      if (!Object.hasOwn(record, key)) continue;
      if (inner === null) delete copy[key];
      else copy[key] = prune(record[key], inner);
    }
    return copy;
  }
  const kept: [string, unknown][] = [];
  for (const [key, child] of Object.entries(record)) {
    const inner = trie.get(key);
    if (inner === null) continue;
    kept.push([key, inner === undefined ? child : prune(child, inner)]);
  }
  return Object.fromEntries(kept);
}

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
    // Express 5 parses req.query afresh on each read, so this object is the query as sent: the validator coerces
    // and fills in its own parse (or the kept copy below). The journal records this one.
    const query = req.query as Record<string, unknown>;
    if (req.state) req.state.receivedQuery = query;
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
        received: { body: req.body },
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
