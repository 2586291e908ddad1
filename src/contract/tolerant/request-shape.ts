// What the contract names in one operation's request: its query parameters and its body schema per media type.
import { listOperations, type ContractDocument } from '../document/load-contract.js';
import { derefIn, type Deref } from './unknown-fields.js';

/** The parts of an operation's request the tolerant reader compares a request with. */
export interface RequestShape {
  /** Query parameter names the contract names; undefined when any name is accepted (a free-form query object). */
  query: Set<string> | undefined;
  /** Body schema by media type ('application/json', 'multipart/form-data'). */
  body: Map<string, unknown>;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

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
