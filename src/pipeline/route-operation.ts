// Routing: how a request's path is read and the operation it names. Each of the contract's paths has one matcher,
// tried in the contract's order (the order express-openapi-validator matches them in, so both agree on every
// request) and compiled once, the first time a request's path starts with that path's literal text: a start compiles
// only the paths its first requests name. Case-sensitive: `/_SANDBOX/requests` is no spelling of an operation.
// Everything after this step keys on the operation it found. Before it, in the app's chain: a path segment that does
// not decode is read as its literal text, and the pages outside the versioned API are passed by its requests.
import type { RequestHandler } from 'express';
import { pathToRegexp } from 'path-to-regexp';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import { listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { allowHeader, operationMethodOf } from '../http/allow-header.js';
import { HttpError, httpError } from '../http/errors.js';
import type { MatchedOperation } from './request-state.js';
import { composeMiddleware } from './contract-validator.js';
import { decodedOrAsWritten } from '../percent-decode.js';

interface CompiledPath {
  /** The contract's path, `{name}` written `:name` as the validator turns it into an Express route. */
  route: string;
  /** Its literal text before the first parameter: a path that does not start with it cannot meet its matcher. */
  prefix: string;
  /** Its matcher, compiled the first time a path starts with its prefix. */
  matcher?: { regexp: RegExp; keys: string[] };
  /** operationId by upper-case method. */
  methods: Map<string, string>;
}

/**
 * Finds the operation of a method and a path (as sent, query apart): 404 for no path, 405 for no such method.
 * `respell` may answer another spelling of the path to route instead: it is asked when no route matches the path,
 * and first for a path ending in `/`, which a route matches as if the slash were not there (the raw relay form keeps
 * it as an empty segment, which the contract's pattern refuses).
 */
export type RouteOperation = (method: string, path: string, respell?: () => string | undefined) => MatchedOperation;

/**
 * The contract's paths, each with its matcher (compiled on first use), in the contract's order, and the matcher each
 * path a request named was found to meet: a client names the same paths again and again, and walking the matchers is a
 * visible share of a request's work. Bounded, since a path is the client's to choose.
 */
class ContractPaths {
  private readonly table: CompiledPath[];
  private readonly byPath = new Map<string, FoundPath | null>();

  constructor(doc: ContractDocument) {
    const paths = new Map<string, CompiledPath>();
    for (const op of listOperations(doc)) {
      let compiled = paths.get(op.path);
      if (!compiled) {
        // The literal text ends at the first parameter, or at any character path-to-regexp reads as syntax.
        const literal = op.path.search(/[{:*()?+!\\]/);
        compiled = {
          route: op.path.replace(/\{([^}]+)\}/g, ':$1'),
          prefix: literal < 0 ? op.path : op.path.slice(0, literal),
          methods: new Map(),
        };
        paths.set(op.path, compiled);
      }
      compiled.methods.set(op.method, op.operationId);
    }
    this.table = [...paths.values()];
  }

  /** The first path of the contract whose matcher `path` (as sent, query apart) meets, if any. */
  find(path: string): FoundPath | undefined {
    let found = this.byPath.get(path);
    if (found === undefined) {
      const compiled = this.table.find((candidate) => path.startsWith(candidate.prefix) && matcherOf(candidate).regexp.test(path));
      found = compiled ? { compiled, matched: new Map() } : null;
      if (path.length <= MAX_REMEMBERED_PATH) {
        if (this.byPath.size >= MAX_REMEMBERED_PATHS) this.byPath.clear();
        this.byPath.set(path, found);
      }
    }
    return found ?? undefined;
  }
}

/** A contract path's matcher, compiled on first use: a start, and every app of a test run, compiles only the paths asked for. */
function matcherOf(compiled: CompiledPath): { regexp: RegExp; keys: string[] } {
  if (!compiled.matcher) {
    const { regexp, keys } = pathToRegexp(compiled.route, { sensitive: true });
    compiled.matcher = { regexp, keys: keys.map((key) => key.name) };
  }
  return compiled.matcher;
}

/** A path as sent, the contract's path it met, and the operation it names by method, once routed. */
interface FoundPath {
  compiled: CompiledPath;
  matched: Map<string, MatchedOperation>;
}

/** Bounds of the paths whose matcher ContractPaths remembers. */
const MAX_REMEMBERED_PATHS = 4096;
const MAX_REMEMBERED_PATH = 512;

/**
 * A 405: the path exists, without this method. It names the path's operations, each of which documents this 405
 * (the coverage credits it to each of them).
 */
export class MethodNotAllowed extends HttpError {
  readonly operations: readonly string[];
  constructor(method: string, path: string, methods: ReadonlyMap<string, string>) {
    super(405, `The ${method} method is not supported for route ${path}.`, undefined, { Allow: allowHeader([...methods.keys()]) });
    this.operations = [...methods.values()];
  }
}

/** The contract's routes, compiled once. `facts` is the table of per-operation facts (src/contract/document/operation-facts.ts). */
export function compileRoutes(doc: ContractDocument, facts: ReadonlyMap<string, OperationFacts>): RouteOperation {
  const paths = new ContractPaths(doc);
  const routeOperation: RouteOperation = (method, path, respell) => {
    if (respell && path.length > 1 && path.endsWith('/')) {
      const respelled = respell();
      if (respelled !== undefined) return routeOperation(method, respelled);
    }
    const found = paths.find(path);
    if (found) {
      const { compiled, matched } = found;
      const known = matched.get(method);
      if (known) return known;
      const { methods } = compiled;
      const { regexp, keys } = matcherOf(compiled);
      // HEAD is its path's GET operation (operationMethodOf); every step after routing reads it as that GET.
      const id = methods.get(operationMethodOf(method, (m) => methods.has(m)) ?? method);
      if (id === undefined) {
        throw new MethodNotAllowed(method, path, methods);
      }
      const match = regexp.exec(path)!;
      const pathParams: Record<string, string> = Object.create(null);
      // A segment that does not decode was made literal text before routing (undecodableSegmentsAsText).
      for (const [i, key] of keys.entries()) pathParams[key] = decodedOrAsWritten(match[i + 1]!);
      // The same path and method always name the same operation and parameters: one frozen match, kept with the path.
      const operation = Object.freeze({ id, facts: facts.get(id)!, pathParams: Object.freeze(pathParams) });
      matched.set(method, operation);
      return operation;
    }
    const respelled = respell?.();
    if (respelled !== undefined) return routeOperation(method, respelled);
    return httpError(404, `The route ${path} could not be found.`);
  };
  return routeOperation;
}

/**
 * A path segment that does not decode (`%ZZ`, a lone `%`, overlong UTF-8 such as `%C0%AF`) is taken as its literal
 * text: its `%` signs are escaped, so routing and validation see the value the client typed, and it answers as any
 * malformed value of that parameter does (404 for an id, the parameter's own 422 elsewhere). Left as it is, the
 * validator would answer 422 naming a field built from the URL. originalUrl is rewritten too, since
 * express-openapi-validator matches operations on it (as src/areas/channels/raw-relay-rewrite.ts does).
 */
export const undecodableSegmentsAsText: RequestHandler = (req, _res, next) => {
  const query = req.url.indexOf('?');
  const path = query < 0 ? req.url : req.url.slice(0, query);
  if (path.includes('%')) {
    const segments = path.split('/');
    let changed = false;
    for (let i = 0; i < segments.length; i++) {
      if (decodes(segments[i]!)) continue;
      segments[i] = segments[i]!.replace(/%/g, '%25');
      changed = true;
    }
    if (changed) {
      req.url = segments.join('/') + (query < 0 ? '' : req.url.slice(query));
      req.originalUrl = req.url;
    }
  }
  next();
};

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Middlewares for pages outside the versioned API, in order, skipped in one check by every API request
 * (`/2024-09/...`), which would otherwise walk each of their routes. It decides no access and no observation: a
 * request they let pass is answered by the contract's case-sensitive routing (an operation or 404), as it would be
 * after the pages.
 */
export function outsideApi(...handlers: RequestHandler[]): RequestHandler {
  const pages = handlers.length === 1 ? handlers[0]! : composeMiddleware(handlers);
  return (req, res, next) => (req.url.startsWith('/2024-09/') ? next() : pages(req, res, next));
}
