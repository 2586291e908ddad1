// Each operation's request as Swagger UI's "Try it out" builds it from the contract alone: every parameter that has
// an example (or a schema example or default), and the request body's example.
import type { ContractOperation } from '../../src/contract/document/load-contract.js';
import { contractOperations, deref, jsonBodyOf, paramsOf } from './contract-requests.js';

type Obj = Record<string, unknown>;

/** What swagger-client's execute takes for one operation, from the contract's examples only. */
export interface ExampleCall {
  operationId: string;
  parameters: Record<string, unknown>;
  requestBody?: unknown;
  requestContentType?: string;
  /** The operation's success status (its only 2xx). */
  success: number;
}

/** The value Swagger UI fills a parameter with: its example, else its schema's example, else its default. */
export function parameterExample(param: { example?: unknown; schema?: Obj }): unknown {
  const schema = deref(param.schema ?? {}) as Obj;
  return param.example ?? schema.example ?? schema.default;
}

/** The single 2xx status the contract documents for the operation. */
export function successStatus(op: ContractOperation): number {
  const ok = op.statuses.filter((s) => s >= 200 && s < 300);
  if (ok.length !== 1) throw new Error(`${op.operationId} documents ${ok.length} success statuses`);
  return ok[0]!;
}

/** The example call of one operation. `requiredOnly` leaves optional parameters out, as the docs page does. */
export function exampleCall(op: ContractOperation, { requiredOnly = false } = {}): ExampleCall {
  const parameters: Record<string, unknown> = {};
  for (const param of paramsOf(op)) {
    if (param.in === 'header' || (requiredOnly && !param.required)) continue;
    const value = parameterExample(param as unknown as { example?: unknown; schema?: Obj });
    if (value !== undefined) parameters[param.name] = value;
  }
  const body = jsonBodyOf(op);
  const call: ExampleCall = { operationId: op.operationId, parameters, success: successStatus(op) };
  if (body?.example !== undefined) Object.assign(call, { requestBody: body.example, requestContentType: 'application/json' });
  return call;
}

/** Every operation's example call, in the contract's order. */
export const exampleCalls = (options?: { requiredOnly?: boolean }): ExampleCall[] => contractOperations.map((op) => exampleCall(op, options));
