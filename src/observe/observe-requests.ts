// One place that watches every finished request and feeds the journal, the coverage report and the log line,
// so none of the three can drift from the others and handlers stay unaware of all of them.
import type { Express, Request, RequestHandler, Response } from 'express';
import { logRequest, requestIdOf, type RequestLogger } from './request-log.js';
import { IGNORED_FIELDS_HEADER, journaledIgnored } from './ignored-fields.js';
import type { CoverageTracker } from './world-observations.js';
import type { RequestJournal, RequestTrail } from './request-journal.js';

/** Which observers to feed; each is optional. */
export interface ObserveOptions {
  journal?: RequestJournal;
  coverage?: CoverageTracker;
  /** Coverage per workspace (wins over `coverage`); undefined for a workspace that is gone. */
  coverageOf?: (workspace: string) => CoverageTracker | undefined;
  /** The request log (src/observe/request-log.ts); none without it. */
  logger?: RequestLogger;
  /** The workspace a request ran in (the lead's world resolution); 'default' when it answers undefined. */
  workspaceOf?: (req: Request, res: Response) => string | undefined;
  /** The operationId the request matched; by default the one routing put in the request's state. */
  operationIdOf?: (req: Request) => string | undefined;
  /** Why the request was answered as it was (the pipeline's trail); none without it. */
  trailOf?: (req: Request, res: Response) => RequestTrail | undefined;
  /** Requests kept out of the journal (still logged and counted): unjournaled() decides it for the app. */
  skipJournal?: (req: Request, res: Response) => boolean;
  now?: () => Date;
}

/**
 * A page of the sandbox's own (landing, docs, favicon, the contract downloads): what it answers is kept out of the
 * journal, where it would only bury a client's own requests. Marked by the page that answered, not by its path.
 */
export function toolingPage(handler: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (req.state) req.state.tooling = true;
    handler(req, res, (error?: unknown) => {
      if (req.state) req.state.tooling = false;
      next(error as never);
    });
  };
}

/**
 * What the app keeps out of the journal: the tooling pages, and the operations the contract declares unjournaled
 * (`x-sandbox-journaled: false`: reading or clearing the journal, reading the coverage), by the operation matched.
 */
export function unjournaled(req: Request): boolean {
  return req.state?.tooling === true || req.state?.operation?.facts.journaled === false;
}

function requestBodyOf(req: Request, body: unknown): unknown {
  // Uploaded files are described, never stored: the journal is for reading what was sent, not for its bytes.
  const files = req.state?.files;
  if (files === undefined || files.length === 0) return body;
  const described = files.map((f) => ({ field: f.fieldname, filename: f.originalname, mimetype: f.mimetype, size: f.size }));
  const fields: Record<string, unknown> = { ...(typeof body === 'object' && body ? body : {}) };
  // The empty string the body reader puts under a file's field for the validator (src/pipeline/read-body.ts) is no
  // field the client sent.
  for (const file of files) if (fields[file.fieldname] === '') delete fields[file.fieldname];
  return { ...fields, files: described };
}

/** What an answer is about: the operation, the workspace, the input as the client sent it and the body answered. */
export interface AnswerFacts {
  /** The path without the query. */
  path: string;
  query?: Record<string, unknown>;
  requestBody?: unknown;
  responseBody?: unknown;
  /** The body of a replayed answer, as the JSON bytes kept for it (src/pipeline/replay-cache.ts), instead of `responseBody`. */
  responseJson?: Buffer;
  /** A request that named a path but none of its operations (a 405): that path's operations. */
  pathOperations?: readonly string[];
  /** What the tolerant reader ignored in the request. */
  ignored?: string[];
  operationId?: string | null;
  /** The workspace the request ran in; 'default' when undefined. */
  workspace?: string;
  /** Counted but kept out of the journal (tooling pages, reads of the journal and coverage), and logged at debug when read. */
  unjournaled?: boolean;
  /** The answer was forced with `Prefer: code=` (the operation's example, its handler never ran): coverage marks it apart. */
  forced?: boolean;
  /** Why it was answered as it was: the step that answered and what it found (src/pipeline/request-trail.ts). */
  trail?: RequestTrail;
  /** A kept answer replayed (src/pipeline/replay-cache.ts): its query is the kept object, handed on each replay. */
  replayed?: boolean;
}

/** One finished request/response: what createObserver records. */
export interface Exchange extends AnswerFacts {
  /** The request's id (its X-Request-Id, src/observe/request-log.ts). */
  requestId?: string;
  /** When it arrived. */
  at: Date;
  method: string;
  /** The URL as received (path and query), for the log line. */
  url: string;
  headers?: Record<string, string | string[] | number | undefined>;
  status: number;
  durationMs: number;
}

/** Feeds one exchange to the journal, the coverage report and the log. */
export function createObserver(options: ObserveOptions): (exchange: Exchange) => void {
  const { journal, coverage, coverageOf, logger } = options;
  return (ex) => {
    const operationId = ex.operationId ?? undefined;
    const tracker = coverageOf ? coverageOf(ex.workspace ?? 'default') : coverage;
    tracker?.record(operationId, ex.status, ex.forced === true);
    // A 405 names no operation but a path, whose every operation documents it.
    if (operationId === undefined && ex.pathOperations) for (const id of ex.pathOperations) tracker?.record(id, ex.status, ex.forced === true);
    if (journal && !ex.unjournaled) {
      journal.record({
        id: ex.requestId,
        at: ex.at,
        workspace: ex.workspace,
        method: ex.method,
        path: ex.path,
        operationId: operationId ?? null,
        status: ex.status,
        durationMs: ex.durationMs,
        query: ex.query,
        headers: ex.headers,
        requestBody: ex.requestBody,
        responseBody: ex.responseBody,
        responseJson: ex.responseJson,
        ignored: ex.ignored,
        trail: ex.trail,
        kept: ex.replayed,
      });
    }
    if (logger) logRequest(logger, ex);
  };
}

/**
 * Keeps the body of each JSON answer of `app` in its request's state, for the observers (observeRequests). It is
 * done once, on the app's response prototype (`app.response`, Express's documented way to override a response
 * method), not by giving each response a res.json of its own: a function left on every answered response kept
 * about a quarter of what each request allocated alive through V8's young-generation collections, so each of them
 * copied megabytes and held up the requests waiting behind it.
 */
export function keepJsonBodies(app: Express): void {
  const json = app.response.json;
  app.response.json = function (this: Response, body?: unknown) {
    if (this.req.state) this.req.state.jsonBody = body;
    return json.call(this, body);
  };
}

/**
 * Middleware to mount first (before the contract): records each request once its response has finished. The app
 * keeps its JSON bodies for it (keepJsonBodies).
 */
export function observeRequests(options: ObserveOptions & { observe?: (exchange: Exchange) => void }): RequestHandler {
  const operationIdOf = options.operationIdOf ?? ((req: Request) => req.state?.operation?.id);
  const skipJournal = options.skipJournal;
  const trailOf = options.trailOf;
  const observe = options.observe ?? createObserver(options);
  const now = options.now ?? (() => new Date());

  /**
   * The exchange of a request that arrived at `at` (hrtime `started`) with this URL and path, once its response has
   * finished: what the journal shows is what the client sent, the request as received when the tolerant reader took
   * fields out.
   */
  const exchangeOf = (req: Request, res: Response, at: Date, started: bigint, url: string, path: string): Exchange => {
    const state = req.state;
    const ignored = state?.ignored;
    return {
      requestId: requestIdOf(req),
      at,
      method: req.state?.sentMethod ?? req.method ?? 'GET',
      url,
      headers: req.headers,
      path,
      query: (state?.receivedQuery ?? req.query) as Record<string, unknown>,
      // Nothing a caller refused at the door sent is kept (its body is not even read, src/pipeline/handle-request.ts).
      requestBody: res.statusCode === 401 ? undefined : requestBodyOf(req, ignored ? ignored.received.body : req.body),
      responseBody: state?.jsonBody,
      responseJson: state?.replayedJson,
      // What the answer named (a refusal of the records comes before the input, and names none).
      ignored: ignored && res.hasHeader(IGNORED_FIELDS_HEADER) ? journaledIgnored(ignored) : undefined,
      operationId: operationIdOf(req),
      pathOperations: state?.pathOperations,
      workspace: options.workspaceOf?.(req, res),
      unjournaled: skipJournal?.(req, res),
      forced: /(^|[\s,])code=/.test(String(res.getHeader('preference-applied') ?? '')),
      trail: trailOf?.(req, res),
      replayed: state?.replayedJson !== undefined,
      status: res.statusCode,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
    };
  };

  return (req, res, next) => {
    const at = now();
    const started = process.hrtime.bigint();
    // The URL and path are read on arrival: routers rewrite req.url (and a raw relay path originalUrl) as the request travels.
    const url = req.originalUrl ?? req.url ?? '';
    const path = req.path;
    // A response finishes once: one plain listener, without the wrapper `once` makes for each response.
    res.on('finish', () => observe(exchangeOf(req, res, at, started, url, path)));
    next();
  };
}
