// One line per request, through pino: JSON lines a CI log can grep or feed to jq, or pino-pretty's readable lines
// when a person watches a terminal. pino-http gives each request its id (the X-Request-Id it is answered with) and
// a logger bound to it. Secrets in query strings (the retailer callback's `code`, a token passed as a parameter)
// never reach the log. The request id lives here too: pino-http's genReqId gives it, and the line carries it.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';
import type PinoPretty from 'pino-pretty';
import { redactUrl } from './redact.js';

/** The levels --log-level / LOG_LEVEL accept, pino's names; 'silent' logs nothing. */
export type RequestLogLevel = 'error' | 'warn' | 'info' | 'debug' | 'silent';

/** What is known about a finished request. */
export interface RequestLogInput {
  method: string;
  /** The URL as received (path and query). */
  url: string;
  operationId?: string | null;
  status: number;
  durationMs: number;
  workspace?: string;
  requestId?: string;
  /** The request's own logger (pino-http's, which carries its id); the line goes there when there is one. */
  log?: Logger;
}

/** Where the lines go and how they look. */
export interface RequestLoggerOptions {
  level: RequestLogLevel;
  /** Each line, without its newline (tests, embedders); by default stdout. */
  write?: (line: string) => void;
  /** pino-pretty's coloured lines instead of JSON; by default when stdout is a terminal. */
  pretty?: boolean;
}

// In a terminal a request is one short line: the fields are read in a sentence rather than listed.
const PRETTY_MESSAGE = '{method} {path}{if query}?{query}{end} {status} {duration_ms} ms{if operation_id} {operation_id}{end} {workspace} {request_id}';
const PRETTY_IN_MESSAGE = 'pid,hostname,method,path,query,status,duration_ms,operation_id,workspace,request_id';

// pino-pretty and its dependencies are loaded only when lines are made for a person: a server whose output goes
// to a file, a pipe or a test never loads them.
const loadPinoPretty = (): typeof PinoPretty => createRequire(import.meta.url)('pino-pretty') as typeof PinoPretty;

/** The request logger: pino at the configured level, JSON unless `pretty`. */
export function createRequestLogger({ level, write, pretty = !write && process.stdout.isTTY === true }: RequestLoggerOptions): Logger {
  const lines = write && new Writable({ write: (chunk, _encoding, done) => (write(String(chunk).replace(/\n$/, '')), done()) });
  const destination: DestinationStream = pretty
    ? loadPinoPretty()({ sync: true, colorize: !lines, singleLine: true, ignore: PRETTY_IN_MESSAGE, messageFormat: PRETTY_MESSAGE, destination: lines || 1 })
    : write
      ? { write: (chunk) => write(chunk.endsWith('\n') ? chunk.slice(0, -1) : chunk) }
      : pino.destination({ dest: 1, sync: true });
  return pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/** The docs pages' files and the contract downloads: useful when debugging the docs, noise otherwise. */
export function isDocsAsset(path: string): boolean {
  return path === '/favicon.ico' || path === '/docs' || path.startsWith('/docs/') || path.startsWith('/openapi.');
}

/** The level a request is logged at: a 5xx is the sandbox's own fault; docs assets only at debug. */
export function requestLogLevel(status: number, path = ''): 'error' | 'info' | 'debug' {
  if (status >= 500) return 'error';
  return isDocsAsset(path) ? 'debug' : 'info';
}

/** The key of the request id in every line of a request. */
const REQUEST_ID_KEY = 'request_id';

/**
 * pino-http over the request logger: each request gets its id (a valid X-Request-Id it sent, else a new one, put
 * on the answer) and `req.log`, a child logger carrying `request_id`. The line is written once the journal and the
 * coverage have the same exchange (src/observe/observe-requests.ts), so pino-http's own line is off.
 */
export function httpRequestLogger(logger: Logger): HttpLogger {
  return pinoHttp({
    logger,
    genReqId: (req, res) => assignRequestId(req, res),
    autoLogging: false,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: REQUEST_ID_KEY },
    // The request is described by the line's own fields; a serialised copy in every child logger is wasted work.
    wrapSerializers: false,
    serializers: { req: () => undefined },
  });
}

/** The fields of one request's line, query secrets redacted. */
export function requestLogFields(input: RequestLogInput): Record<string, unknown> {
  const url = redactUrl(input.url);
  const q = url.indexOf('?');
  const fields: Record<string, unknown> = { method: input.method.toUpperCase(), path: q < 0 ? url : url.slice(0, q) };
  if (q >= 0) fields.query = url.slice(q + 1);
  fields.operation_id = input.operationId ?? null;
  fields.status = input.status;
  fields.duration_ms = Math.round(input.durationMs * 10) / 10;
  if (input.workspace !== undefined) fields.workspace = input.workspace;
  // A request's own logger carries its id already.
  if (input.requestId !== undefined && !input.log) fields[REQUEST_ID_KEY] = input.requestId;
  return fields;
}

/** Writes one request's line at its level, through the request's own logger if it has one (nothing when the level is off). */
export function logRequest(logger: Logger, input: RequestLogInput): void {
  const log = input.log ?? logger;
  const url = input.url;
  const q = url.indexOf('?');
  const level = requestLogLevel(input.status, q < 0 ? url : url.slice(0, q));
  if (log.isLevelEnabled(level)) log[level](requestLogFields(input), 'request');
}

// Every answer carries X-Request-Id, the id of its journal entry and its log line, so a client's report of one
// call finds the server's record of it. A client (or a proxy in front of it) that already tags its requests
// keeps its own id, when it is one the sandbox can safely echo into a header, a log and a JSON journal.
/** The header's name, as sent and as exposed to browser scripts. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** A client id the sandbox echoes: 1 to 128 characters of letters, digits and . _ : - (UUIDs, ULIDs, trace ids). */
export const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's id when it is valid (a single header, matching VALID_REQUEST_ID), otherwise a new UUID. */
export function requestIdFrom(headers: IncomingHttpHeaders, newId: () => string = randomUUID): string {
  const sent = headers['x-request-id'];
  return typeof sent === 'string' && VALID_REQUEST_ID.test(sent) ? sent : newId();
}

/** A request once its id is assigned. */
export type WithRequestId = IncomingMessage & { id?: string };

/** Gives the request its id (req.id, read by the journal and the log) and puts it on the answer: pino-http's genReqId. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, newId?: () => string): string {
  const id = idRequest(req, newId);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * Gives the request its id without touching the answer, for a caller that sends the header in writeHead itself: a
 * header set before writeHead makes Node merge the two header sets one setHeader at a time.
 */
export function idRequest(req: IncomingMessage, newId?: () => string): string {
  const id = requestIdFrom(req.headers, newId);
  (req as WithRequestId).id = id;
  return id;
}

/** The id assignRequestId gave the request, if it ran. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as WithRequestId).id;
}
