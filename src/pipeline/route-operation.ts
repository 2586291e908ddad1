// Routing: the contract's paths compiled once, at start, into one matcher each, in the contract's order (the order
// express-openapi-validator matches them in, so both agree on every request). Case-sensitive: `/_SANDBOX/requests`
// is no spelling of an operation. Everything after this step keys on the operation it found.
import { pathToRegexp } from 'path-to-regexp';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import { listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import { allowHeader } from '../http/allow-header.js';
import { httpError } from '../http/errors.js';
import type { MatchedOperation } from './request-state.js';

interface CompiledPath {
  regexp: RegExp;
  keys: string[];
  /** operationId by upper-case method. */
  methods: Map<string, string>;
}

/** Finds the operation of a method and a path (as sent, query apart): 404 for no path, 405 for no such method. */
export type RouteOperation = (method: string, path: string) => MatchedOperation;

/** The contract's routes, compiled once. `facts` is the table of per-operation facts (src/contract/operation-facts.ts). */
export function compileRoutes(doc: ContractDocument, facts: ReadonlyMap<string, OperationFacts>): RouteOperation {
  const paths = new Map<string, CompiledPath>();
  for (const op of listOperations(doc)) {
    let compiled = paths.get(op.path);
    if (!compiled) {
      // `{name}` becomes `:name`, as the validator turns the contract's paths into Express routes.
      const { regexp, keys } = pathToRegexp(op.path.replace(/\{([^}]+)\}/g, ':$1'), { sensitive: true });
      compiled = { regexp, keys: keys.map((key) => key.name), methods: new Map() };
      paths.set(op.path, compiled);
    }
    compiled.methods.set(op.method, op.operationId);
  }
  const table = [...paths.values()];
  return (method, path) => {
    for (const { regexp, keys, methods } of table) {
      const match = regexp.exec(path);
      if (!match) continue;
      const id = methods.get(method);
      if (id === undefined) {
        httpError(405, `The ${method} method is not supported for route ${path}.`, undefined, { Allow: allowHeader([...methods.keys()]) });
      }
      const pathParams: Record<string, string> = Object.create(null);
      for (const [i, key] of keys.entries()) pathParams[key] = decodeSegment(match[i + 1]!);
      return { id, facts: facts.get(id)!, pathParams };
    }
    return httpError(404, `The route ${path} could not be found.`);
  };
}

/** A path segment's value; one that does not decode was made literal text before routing (undecodable-path.ts). */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
