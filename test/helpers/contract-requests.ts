import request from 'supertest';
import { listOperations, loadContract, type ContractOperation } from '../../src/contract/document/load-contract.js';

/** One parameter of an operation, with its `$ref` resolved. */
export interface Param {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  example?: unknown;
  schema?: { type?: string; format?: string; $ref?: string };
}

type Obj = Record<string, unknown>;

const { doc } = loadContract();

/** Follows local `$ref`s inside the contract. */
export function deref<T>(value: T): T {
  let current: unknown = value;
  while (current && typeof current === 'object' && typeof (current as Obj).$ref === 'string') {
    const segments = ((current as Obj).$ref as string).replace(/^#\//, '').split('/');
    current = segments.reduce<unknown>((node, key) => (node as Obj)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current as T;
}

/** Every operation of the contract. */
export const contractOperations: readonly ContractOperation[] = listOperations(doc);

/** The path's and the operation's parameters, resolved. */
export function paramsOf(op: ContractOperation): Param[] {
  const item = doc.paths[op.path] as { parameters?: unknown[] };
  return [...(item.parameters ?? []), ...((op.operation.parameters as unknown[] | undefined) ?? [])].map((p) => deref(p) as Param);
}

/** The JSON request body's schema and example, when the operation takes one. */
export function jsonBodyOf(op: ContractOperation): { schema: Obj; example: unknown } | undefined {
  const body = deref(op.operation.requestBody as Obj | undefined) as { content?: Record<string, Obj> } | undefined;
  const media = body?.content?.['application/json'];
  if (!media) return undefined;
  const first = media.examples ? deref(Object.values(media.examples as Obj)[0] as Obj) : undefined;
  return { schema: deref(media.schema as Obj), example: media.example ?? (first as Obj | undefined)?.value };
}

/** The methods the contract has for the operation's path, upper-case. */
export function methodsOfPath(path: string): string[] {
  return contractOperations.filter((op) => op.path === path).map((op) => op.method);
}

/**
 * A request for the operation built from the contract's own examples: path ids from the parameter examples,
 * required query parameters from theirs (`overrides` replace either), sent as the demo owner.
 */
export function exampleRequest(app: Parameters<typeof request>[0], op: ContractOperation, overrides: Record<string, string> = {}, method = op.method) {
  let url = op.path;
  const query: Record<string, string> = {};
  for (const param of paramsOf(op)) {
    const value = overrides[param.name] ?? (param.example === undefined ? undefined : String(param.example));
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(value ?? 'x'));
    else if (param.in === 'query' && value !== undefined && (param.required || param.name in overrides)) query[param.name] = value;
  }
  const agent = request(app) as unknown as Record<string, (url: string) => request.Test>;
  return agent[method.toLowerCase()]!(url).query(query).set('Authorization', 'Bearer demo-owner-token');
}
