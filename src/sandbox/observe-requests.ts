// One place that watches every finished request and feeds the journal, the coverage report and the log line,
// so none of the three can drift from the others and handlers stay unaware of all of them.
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ignoredOf } from '../http/ignored-fields.js';
import { logRequest } from '../http/request-log.js';
import { requestIdOf } from '../http/request-id.js';
import type { CoverageTracker } from './coverage.js';
import type { RequestJournal } from './request-journal.js';

/** Which observers to feed; each is optional. */
export interface ObserveOptions {
  journal?: RequestJournal;
  coverage?: CoverageTracker;
  /** Coverage per workspace (wins over `coverage`); undefined for a workspace that is gone. */
  coverageOf?: (workspace: string) => CoverageTracker | undefined;
  /** The request log (src/http/request-log.ts); no lines without it. */
  logger?: Logger;
  /** The workspace a request ran in (the lead's world resolution); 'default' when it answers undefined. */
  workspaceOf?: (req: Request, res: Response) => string | undefined;
  /** The operationId the request matched; by default what express-openapi-validator left on req.openapi. */
  operationIdOf?: (req: Request) => string | undefined;
  /** Requests kept out of the journal (still logged and counted); default: isToolingPath. */
  skipJournal?: (req: Request) => boolean;
  /** Paths kept out of the journal when observing without Express; default: isToolingPath. */
  skipJournalPath?: (path: string) => boolean;
  now?: () => Date;
}

/** Pages and control-plane reads that would only bury a client's own requests in the journal. */
export function isToolingPath(path: string): boolean {
  return (
    path === '/' ||
    path === '/favicon.ico' ||
    path === '/openapi.json' ||
    path === '/openapi.yaml' ||
    path === '/docs' ||
    path.startsWith('/docs/') ||
    path.startsWith('/_sandbox/requests') ||
    path.startsWith('/_sandbox/coverage')
  );
}

/** express-openapi-validator's match, if the request reached it. */
export function validatorOperationId(req: Request): string | undefined {
  const schema = (req as Request & { openapi?: { schema?: { operationId?: unknown } } }).openapi?.schema;
  return typeof schema?.operationId === 'string' ? schema.operationId : undefined;
}

function requestBodyOf(req: Request, body: unknown): unknown {
  const files = (req as Request & { files?: unknown }).files;
  // Uploaded files are described, never stored: the journal is for reading what was sent, not for its bytes.
  const described = Array.isArray(files)
    ? files.map((f: { fieldname?: string; originalname?: string; mimetype?: string; size?: number }) => ({
        field: f.fieldname,
        filename: f.originalname,
        mimetype: f.mimetype,
        size: f.size,
      }))
    : undefined;
  if (described && described.length > 0) return { ...(typeof body === 'object' && body ? body : {}), files: described };
  return body;
}

/**
 * One finished request/response, as whatever answered it saw it. Express builds it in observeRequests; a fast
 * path in front of Express (cached answers) builds one itself and hands it to the runtime's `observe`.
 */
export interface Exchange {
  /** The request id, as sent in X-Request-Id; the journal entry takes it as its id. */
  requestId?: string;
  /** When the request arrived. */
  at: Date;
  method: string;
  /** The URL as received (path and query), for the log line. */
  url: string;
  /** The path without the query. */
  path: string;
  query?: Record<string, unknown>;
  headers?: Record<string, string | string[] | number | undefined>;
  requestBody?: unknown;
  responseBody?: unknown;
  /** What the tolerant reader ignored in the request. */
  ignored?: string[];
  status: number;
  durationMs: number;
  operationId?: string | null;
  /** The workspace the request ran in; 'default' when undefined. */
  workspace?: string;
  /** Counted and logged but kept out of the journal (besides the tooling paths). */
  unjournaled?: boolean;
}

/** Feeds one exchange to the journal, the coverage report and the log: the part of observeRequests that needs no Express. */
export function createObserver(options: ObserveOptions): (exchange: Exchange) => void {
  const { journal, coverage, coverageOf, logger } = options;
  const skipPath = options.skipJournalPath ?? isToolingPath;
  return (ex) => {
    const operationId = ex.operationId ?? undefined;
    const tracker = coverageOf ? coverageOf(ex.workspace ?? 'default') : coverage;
    tracker?.record(operationId, ex.status);
    if (journal && !ex.unjournaled && !skipPath(ex.path)) {
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
        ignored: ex.ignored,
      });
    }
    if (logger) {
      const { method, url, status, durationMs, workspace, requestId } = ex;
      logRequest(logger, { method, url, operationId, status, durationMs, workspace, requestId });
    }
  };
}

/** Middleware to mount first (before the contract): records each request once its response has finished. */
export function observeRequests(options: ObserveOptions & { observe?: (exchange: Exchange) => void }): RequestHandler {
  const operationIdOf = options.operationIdOf ?? validatorOperationId;
  const skipJournal = options.skipJournal;
  const observe = options.observe ?? createObserver(options);
  const now = options.now ?? (() => new Date());

  return (req, res, next) => {
    const at = now();
    const started = process.hrtime.bigint();
    // The URL is read now: routers rewrite req.url while the request travels.
    const url = req.originalUrl;
    const path = req.path;
    let responseBody: unknown;
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      responseBody = body;
      return json(body);
    };

    res.once('finish', () => {
      // The journal shows what the client sent: the request as received when the tolerant reader took fields out.
      const ignored = ignoredOf(res);
      observe({
        requestId: requestIdOf(req),
        at,
        method: req.method,
        url,
        path,
        unjournaled: skipJournal?.(req),
        query: (ignored?.received.query ?? req.query) as Record<string, unknown>,
        headers: req.headers,
        requestBody: requestBodyOf(req, ignored ? ignored.received.body : req.body),
        responseBody,
        ignored: ignored?.fields,
        status: res.statusCode,
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        operationId: operationIdOf(req),
        workspace: options.workspaceOf?.(req, res),
      });
    });
    next();
  };
}
