// A body that matches no branch of a `oneOf` gets every branch's errors from the validator ("the format field must
// be equal to constant (and 19 more errors)", the other branch's "must not have more than 0 properties"). A client
// meant one branch: its 422 names that branch's fields, the discriminating one (a `const` property) first, and only
// it when it is wrong, since then the body is not that kind of thing at all.
import { deref, isObj, listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import type { ValidatorError } from '../http/validation-errors.js';

type Obj = Record<string, unknown>;

/** The JSON body schema of each operation, by operationId. */
export function bodySchemas(doc: ContractDocument): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const op of listOperations(doc)) {
    const body = deref(doc, (op.operation as Obj).requestBody);
    const schema = isObj(body) && isObj(body.content) && isObj(body.content['application/json']) ? body.content['application/json'].schema : undefined;
    if (schema !== undefined) out.set(op.operationId, schema);
  }
  return out;
}

const ONE_OF = 'oneOf.openapi.validation';
const split = (path = '') => path.replace(/^\//, '').split('/').filter(Boolean);

/** The schema at a path inside a schema (`a/b`), following properties and items; undefined past what it declares. */
export function schemaAt(doc: ContractDocument, schema: unknown, segments: string[]): Obj | undefined {
  let node = deref(doc, schema);
  for (const segment of segments) {
    if (!isObj(node)) return undefined;
    const next = isObj(node.properties) && segment in node.properties ? node.properties[segment] : /^\d+$/.test(segment) ? node.items : undefined;
    node = deref(doc, next);
  }
  return isObj(node) ? node : undefined;
}

/** The value at a path inside a value of the request (`a/0`). */
export function valueAt(root: unknown, segments: string[]): unknown {
  // Own members only: a request's `__proto__` or `constructor` is not what its object inherits.
  return segments.reduce<unknown>((node, key) => ((isObj(node) || Array.isArray(node)) && Object.hasOwn(node, key) ? (node as Obj)[key] : undefined), root);
}

/** The branch's discriminating property: one whose schema is a `const`. */
function discriminator(doc: ContractDocument, branch: Obj): { key: string; value: unknown } | undefined {
  for (const [key, property] of Object.entries(isObj(branch.properties) ? branch.properties : {})) {
    const schema = deref(doc, property);
    if (isObj(schema) && 'const' in schema) return { key, value: schema.const };
  }
  return undefined;
}

/** A branch in words, when it can be told: by its discriminating field, or as the empty object. */
function formOf(doc: ContractDocument, branch: Obj): string | undefined {
  const d = discriminator(doc, branch);
  if (d) return `an object whose ${d.key} is ${JSON.stringify(d.value)}`;
  if (branch.maxProperties === 0) return 'an empty object';
  return undefined;
}

/** The branch a value meant: the one whose discriminating field it holds, else the one declaring most of its keys. */
function meantBranch(doc: ContractDocument, branches: Obj[], value: Obj): Obj | undefined {
  const keys = Object.keys(value);
  const named = branches.find((b) => {
    const d = discriminator(doc, b);
    return d !== undefined && keys.includes(d.key);
  });
  if (named) return named;
  const declared = (b: Obj) => keys.filter((k) => isObj(b.properties) && k in b.properties).length;
  const ranked = [...branches].sort((a, b) => declared(b) - declared(a));
  if (ranked[0] && declared(ranked[0]) > 0) return ranked[0];
  // Keys none declares: the one branch that may hold that many keys at all (not the empty object's).
  const roomy = branches.filter((b) => typeof b.maxProperties !== 'number' || b.maxProperties >= keys.length);
  return roomy.length === 1 ? roomy[0] : undefined;
}

/**
 * The validator's errors with each failed `oneOf` of the body narrowed to the branch the body meant. Errors of other
 * parts, and a `oneOf` whose meant branch cannot be told, are left as they are.
 */
export function narrowOneOfErrors(doc: ContractDocument, bodySchema: unknown, req: { body?: unknown }, errors: ValidatorError[]): ValidatorError[] {
  let out = errors;
  for (const failed of errors.filter((e) => e.errorCode === ONE_OF && split(e.path)[0] === 'body')) {
    const at = split(failed.path).slice(1);
    const holder = schemaAt(doc, bodySchema, at);
    const value = valueAt(req.body, at);
    if (!holder || !Array.isArray(holder.oneOf)) continue;
    const branches = holder.oneOf.map((b) => deref(doc, b)).filter(isObj);
    const prefix = `/${['body', ...at].join('/')}`;
    const inside = (e: ValidatorError) => e.path === prefix || (e.path ?? '').startsWith(`${prefix}/`);
    if (!isObj(value)) {
      // Not an object (`[]`) where every branch is one: its type is the one thing to say, once, not once per branch.
      if (value !== undefined && branches.length > 0 && branches.every((b) => b.type === 'object'))
        out = [...out.filter((e) => !inside(e)), { path: prefix, message: 'must be object', errorCode: 'type.openapi.validation' }];
      continue;
    }
    const branch = meantBranch(doc, branches, value);
    if (!branch) {
      // No branch is meant (only keys none declares): one error naming the forms the value may take.
      const forms = branches.map((b) => formOf(doc, b));
      if (forms.every((f) => f !== undefined))
        out = [...out.filter((e) => !inside(e)), { path: prefix, message: `must be ${forms.join(' or ')}`, errorCode: ONE_OF }];
      continue;
    }
    const field = (e: ValidatorError) => split(e.path).slice(at.length + 1)[0];
    const d = discriminator(doc, branch);
    let narrowed: ValidatorError[];
    if (d && !(d.key in value)) {
      narrowed = [{ path: `${prefix}/${d.key}`, message: 'is required', errorCode: 'required.openapi.validation' }];
    } else if (d && value[d.key] !== d.value) {
      narrowed = [{ path: `${prefix}/${d.key}`, message: `must be ${JSON.stringify(d.value)}`, errorCode: 'const.openapi.validation' }];
    } else {
      const declared = new Set([
        ...Object.keys(isObj(branch.properties) ? branch.properties : {}),
        ...(Array.isArray(branch.required) ? (branch.required as string[]) : []),
      ]);
      narrowed = errors.filter((e) => inside(e) && field(e) !== undefined && declared.has(field(e)!));
      if (d) narrowed.sort((a, b) => Number(field(b) === d.key) - Number(field(a) === d.key));
      if (narrowed.length === 0) continue;
    }
    out = [...out.filter((e) => !inside(e)), ...narrowed];
  }
  return out;
}
