// What one request carries from step to step: made once when it arrives (newRequestState, in
// src/pipeline/handle-request.ts), filled in by the pipeline's steps in order, read by the answer's observers
// (journal, coverage, log). One typed object instead of keys on res.locals and casts of the
// request. Types only: the pipeline makes it.
import type { UploadedFile } from '../areas/handler-map.js';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import type { Authenticated } from '../access/auth.js';
import type { BoundRecords } from '../access/record-bindings.js';
import type { IgnoredFields } from '../observe/ignored-fields.js';
import type { PreferResult } from '../knobs/prefer-header.js';
import type { World } from '../world.js';
import type { StoreStamp } from '../store/store.js';
import type { TrailStep } from './request-trail.js';
import type { SentJson } from '../http/reply.js';

/** The operation a request matched: its id, what the pipeline decides by, and its path parameters (decoded). */
export interface MatchedOperation {
  readonly id: string;
  readonly facts: OperationFacts;
  readonly pathParams: Readonly<Record<string, string>>;
}

/**
 * Why an answer may be replayed for an identical request: the handler wrote nothing and read only its store and
 * its input, so the same bytes are right while the collections it read and the world's clock stay where they were.
 */
export interface Replayable {
  /** Where the world's store stood when the answer was computed. */
  stamp: StoreStamp;
  /** The world's clock offset it was computed at. */
  clockOffset: number;
  /** The collections the request read (its records and its handler); undefined: any of them, so any change counts. */
  reads: readonly string[] | undefined;
}

/** The per-request state. Every field but `files` and `tooling` is set by the step that learns it. */
export interface RequestState {
  /** A page of the sandbox's own answered it (landing, docs, favicon): kept out of the journal. */
  tooling: boolean;
  /** Routing's result. */
  operation?: MatchedOperation;
  /** The method the client sent, when the pipeline reads the request as another: a HEAD as its path's GET. */
  sentMethod?: 'HEAD';
  /** The Prefer knobs, parsed for operations that take them. */
  prefer?: PreferResult;
  /** Who the bearer token belongs to, for operations secured by it. */
  caller?: Authenticated;
  /**
   * The world the request proved it may act in (its token's, what the control plane allowed, a consent state): the
   * only world it is journaled and counted in. Unset, the request belongs to no workspace.
   */
  actingWorld?: World;
  /** The world the handler acts on: the acting world, or the one an operation anyone may call names. */
  world?: World;
  /** The records the request names, resolved inside the handler's transaction. */
  bound?: BoundRecords;
  /** The uploaded files of a multipart body (memory storage). */
  files: UploadedFile[];
  /** The JSON body held nothing but whitespace or `null`: no body, as far as the contract goes (src/pipeline/read-body.ts). */
  blankBody?: true;
  /** The request's Content-Type said JSON and its body was no bytes, whitespace or `null` (src/pipeline/read-body.ts). */
  typedBlankBody?: true;
  /** What the tolerant reader took out of the request. */
  ignored?: IgnoredFields;
  /**
   * The query as the client sent it (text values, no defaults), for the journal: req.query is the validator's from
   * the tolerant reader on (coerced, defaults filled in, ignored parameters out).
   */
  receivedQuery?: unknown;
  /** Set when the handler's answer may be replayed (src/pipeline/replay-cache.ts). */
  replayable?: Replayable;
  /** The body the answer was sent with through res.json, for the observers (src/observe/observe-requests.ts). */
  jsonBody?: unknown;
  /** The JSON answer res.json serialized and sent (src/http/reply.ts), which a kept answer holds as sent. */
  sentJson?: SentJson;
  /** The body of a replayed answer, the JSON bytes kept and sent (res.json never sees it), for the observers. */
  replayedJson?: Buffer;
  /**
   * The step of the pipeline running now, in the service's order: when a step throws, the step whose refusal is
   * answered (the trail's `answered_by`, src/pipeline/request-trail.ts).
   */
  step?: TrailStep;
  /** On a 405, the operations of the path the request named: each documents that 405 (the coverage credits each). */
  pathOperations?: readonly string[];
  /** What a step threw, which the error handler answers. */
  refusal?: unknown;
  /** The record the bindings step is resolving: the parameter (or field) that names it, and the id sent. */
  naming?: { parameter: string; id: string };
  /** The answer's check against the contract, once it ran: passed, or failed (answered 500 instead). */
  responseCheck?: 'passed' | 'failed';
}

declare module 'http' {
  interface IncomingMessage {
    /** The request's state (src/pipeline/request-state.ts), given by the app's first step. */
    state?: RequestState;
  }
}
