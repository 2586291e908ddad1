// The tolerant reader's eye: which fields of a request the contract does not name. The real service (Laravel)
// ignores whatever it does not validate, so the sandbox finds those fields, reports them and takes them out
// before express-openapi-validator sees the request. Only objects the contract describes field by field are
// searched: a free-form object (no `properties`, or `additionalProperties` true or a schema) names everything,
// and a shape the contract closes (`additionalProperties: false`, such as money) is left for the validator's 422.

import { deref, isObj, type ContractDocument } from '../document/load-contract.js';

type Schema = Record<string, unknown>;

/** Follows `$ref`s of the contract; answers undefined for anything that is not a schema object. */
export type Deref = (schema: unknown) => Schema | undefined;

/** A `$ref` follower over the contract (local refs only, as the contract has). */
export function derefIn(doc: ContractDocument): Deref {
  return (schema) => {
    const node = deref(doc, schema);
    return isObj(node) ? node : undefined;
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

/**
 * The fields of `value` (at any depth) that the schemas do not name, as paths of keys and array indexes. A property the contract
 * marks readOnly counts as not named: it belongs to answers, and the validator would refuse it in a request.
 */
export function unknownFields(value: unknown, schemas: readonly unknown[], deref: Deref): string[][] {
  const found: string[][] = [];
  const walk = (node: unknown, candidates: readonly unknown[], path: string[]) => {
    if (path.length > MAX_DEPTH || candidates.length === 0) return;
    const all = members(candidates, deref);
    if (Array.isArray(node)) {
      const items = all.map((s) => s.items).filter((s) => s !== undefined);
      if (items.length > 0) for (const [index, item] of node.entries()) walk(item, items, [...path, String(index)]);
      return;
    }
    if (!isObject(node)) return;
    const objects = all.filter(describesObject);
    // Any member that speaks about other fields (free-form or closed) or names none decides for itself.
    const tolerant = objects.length > 0 && objects.every((s) => isObject(s.properties) && !('additionalProperties' in s) && !('patternProperties' in s));
    for (const key of Object.keys(node)) {
      const named = objects
        .map((s) => (isObject(s.properties) && Object.hasOwn(s.properties, key) ? deref(s.properties[key]) : undefined))
        .filter((s): s is Schema => s !== undefined);
      const readOnly = named.length > 0 && named.every((s) => s.readOnly === true);
      if (tolerant && (named.length === 0 || readOnly)) {
        found.push([...path, key]);
        continue;
      }
      const open = objects.map((s) => s.additionalProperties).filter(isObject);
      walk(node[key], named.length > 0 ? named : open, [...path, key]);
    }
  };
  walk(value, schemas, []);
  return found;
}

/**
 * A copy of `value` without the fields at `paths`, copying only the objects and arrays along each path: an ignored
 * field may hold anything, however deep, and is dropped without being walked.
 */
export function withoutPaths(value: unknown, paths: readonly (readonly string[])[]): unknown {
  let result = value;
  for (const path of paths) result = without(result, path);
  return result;
}

function without(node: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || node === null || typeof node !== 'object') return node;
  const [key, ...rest] = path;
  if (!Object.hasOwn(node, key)) return node;
  const copy: Record<string, unknown> = Array.isArray(node) ? ([...node] as unknown as Record<string, unknown>) : Object.fromEntries(Object.entries(node));
  if (rest.length === 0) delete copy[key];
  else copy[key] = without((node as Record<string, unknown>)[key], rest);
  return copy;
}
