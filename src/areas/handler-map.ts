import type { operations } from '../contract/document/generated.js';
import { listOperations, type ContractDocument } from '../contract/document/load-contract.js';
import type { Reply, TextReply } from '../http/reply.js';
import type { Ctx } from './context.js';
import type { MerchantRecord } from './merchants/records.js';
import type { BoundRecordTypes } from './route-bindings.js';

/** Every operationId of openapi.yaml: the only link between the contract and the code. */
export type OperationId = keyof operations;

type Op<K extends OperationId> = operations[K];
type Parameters<K extends OperationId> = Op<K>['parameters'];
type Defined<T> = [T] extends [never] ? Record<string, never> : [T] extends [undefined] ? Record<string, never> : NonNullable<T>;
type BodyOf<K extends OperationId> = Op<K>['requestBody'] extends { content: infer C } | undefined
  ? C extends Record<string, unknown>
    ? C[keyof C]
    : undefined
  : undefined;
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
/** The documented media types of a response other than JSON (text/markdown, application/xml). */
type TextTypesOf<R> = R extends { content: infer C } ? Exclude<keyof C, 'application/json'> & string : never;
type TextReplyOf<S extends number, T extends string> = [T] extends [never] ? never : TextReply<S, T>;

type PathOf<K extends OperationId> = Defined<Parameters<K>['path']>;

/** Every path parameter name of the contract: the keys src/areas/route-bindings.ts must declare. */
export type PathParameterName = { [K in OperationId]: keyof PathOf<K> & string }[OperationId];

type QueryNamesMerchant<K extends OperationId> = [NonNullable<Parameters<K>['query']>] extends [never]
  ? false
  : NonNullable<Parameters<K>['query']> extends { merchant_id: string }
    ? true
    : false;
type BodyNamesMerchant<K extends OperationId> = [BodyOf<K>] extends [{ merchant_id: string }] ? true : false;

/**
 * The records the request names, resolved (and access-checked) before validation by resolveBindings (src/access/record-bindings.ts):
 * one per bound path parameter, plus `merchant` where a `merchant_id` query parameter or required body field names it.
 */
export type Bound<K extends OperationId> = { readonly [P in keyof PathOf<K> & keyof BoundRecordTypes]: BoundRecordTypes[P] } & (true extends
  | QueryNamesMerchant<K>
  | BodyNamesMerchant<K>
  ? { readonly merchant: MerchantRecord }
  : unknown);

/** An uploaded file, as multer hands it over (memory storage). */
export interface UploadedFile {
  fieldname: string;
  originalname: string;
  mimetype: string;
  size: number;
  buffer: Buffer;
}

/** What a handler receives, typed from the contract: path params, query, body. The validator has checked all of it. */
export interface Input<K extends OperationId> {
  params: Defined<Parameters<K>['path']>;
  query: Defined<Parameters<K>['query']>;
  body: BodyOf<K>;
  files: UploadedFile[];
  headers: Record<string, string | string[] | undefined>;
  bound: Bound<K>;
}

/**
 * The replies an operation may give: one of its documented statuses with that status's JSON body, or a text in one
 * of the other media types the status documents.
 */
export type OperationReply<K extends OperationId> = {
  [S in keyof Op<K>['responses'] & number]: Reply<S, JsonOf<Op<K>['responses'][S]>> | TextReplyOf<S, TextTypesOf<Op<K>['responses'][S]>>;
}[keyof Op<K>['responses'] & number];

/**
 * A handler: data in, data out; it never touches req or res, and throws HttpErrors for failures. It runs
 * synchronously inside the request's transaction; only handlers wrapped in `outsideTransaction` may be async.
 */
export type Handler<K extends OperationId> = (input: Input<K>, ctx: Ctx) => OperationReply<K> | Promise<OperationReply<K>>;

const OUTSIDE_TRANSACTION = Symbol('outsideTransaction');

/** Marks a handler that manages the store itself (reset, workspaces): the adapter awaits it without a transaction. */
export function outsideTransaction<K extends OperationId>(handler: (input: Input<K>, ctx: Ctx) => Promise<OperationReply<K>>): Handler<K> {
  return Object.assign(handler, { [OUTSIDE_TRANSACTION]: true });
}

export function runsOutsideTransaction(handler: unknown): boolean {
  return typeof handler === 'function' && OUTSIDE_TRANSACTION in handler;
}

/** One handler per operationId; `satisfies Handlers` makes the compiler check the map against the contract. */
export type Handlers = { [K in OperationId]: Handler<K> };

/**
 * Refuses to start when the contract and the handler map disagree: an operation without a handler, or a handler
 * for an operation the contract does not have.
 */
export function checkHandlerMap(doc: ContractDocument, handlers: object): void {
  const operationIds = new Set(listOperations(doc).map((op) => op.operationId));
  const missing = [...operationIds].filter((id) => !(id in handlers));
  const extra = Object.keys(handlers).filter((id) => !operationIds.has(id));
  if (missing.length || extra.length) {
    throw new Error(
      [missing.length ? `operations without a handler: ${missing.join(', ')}` : '', extra.length ? `handlers without an operation: ${extra.join(', ')}` : '']
        .filter(Boolean)
        .join('; '),
    );
  }
}
