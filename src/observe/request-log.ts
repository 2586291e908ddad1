// One line per request, through pino: JSON lines a CI log can grep or feed to jq, or pino-pretty's readable lines
// when a person watches a terminal. Each line carries its request's id (the X-Request-Id it is answered with), given
// on arrival by the app's first step (identifyRequest, below: the id and the line it names live together). Secrets
// in query strings (the retailer callback's `code`, a token passed as a parameter) never reach the log.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import type { DestinationStream, Logger, pino as Pino } from 'pino';
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
  /** Kept out of the journal: a tooling page, or an operation declared `x-sandbox-journaled: false`. */
  unjournaled?: boolean;
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
// pino itself is loaded by the first line a level lets through: a server logging only warnings and errors (a test
// runner's, a CI job's) loads it when something goes wrong, or never.
const loadPino = (): typeof Pino => (createRequire(import.meta.url)('pino') as { pino: typeof Pino }).pino;

/** The levels a request's line is written at (requestLogLevel). */
export type RequestLineLevel = 'error' | 'info' | 'debug';
// pino's order of its levels: a logger at one writes the lines of that level and the ones after it.
const LEVEL_ORDER: RequestLogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

/** The request log: whether a level's lines are written, and one line at a level. */
export interface RequestLogger {
  isLevelEnabled(level: RequestLineLevel): boolean;
  line(level: RequestLineLevel, fields: Record<string, unknown>): void;
}

/** The request logger: pino at the configured level, JSON unless `pretty`, made by the first line it writes. */
export function createRequestLogger({ level, write, pretty = !write && process.stdout.isTTY === true }: RequestLoggerOptions): RequestLogger {
  let logger: Logger | undefined;
  const made = (): Logger => {
    const pino = loadPino();
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
  };
  const from = LEVEL_ORDER.indexOf(level);
  return {
    isLevelEnabled: (lineLevel) => level !== 'silent' && LEVEL_ORDER.indexOf(lineLevel) >= from,
    line: (lineLevel, fields) => (logger ??= made())[lineLevel](fields, 'request'),
  };
}

/** The docs pages' files and the contract downloads: useful when debugging the docs, noise otherwise. */
export function isDocsAsset(path: string): boolean {
  return path === '/favicon.ico' || path === '/docs' || path.startsWith('/docs/') || path.startsWith('/openapi.');
}

/**
 * The level a request is logged at: a 5xx is the sandbox's own fault; docs assets only at debug, and so is the
 * sandbox reading itself (`ownRead`: the inspector polls the journal every 2 s).
 */
export function requestLogLevel(status: number, path = '', ownRead = false): RequestLineLevel {
  if (status >= 500) return 'error';
  return ownRead || isDocsAsset(path) ? 'debug' : 'info';
}

/**
 * A read the journal keeps out and that was answered (a page of the sandbox's tools, the journal, the coverage):
 * tooling reading the sandbox, not a client's request. A refused one, or a clear, is still worth a line.
 */
const isOwnRead = (input: RequestLogInput): boolean => input.unjournaled === true && input.status < 400 && (input.method === 'GET' || input.method === 'HEAD');

/** The key of the request id in every line of a request. */
const REQUEST_ID_KEY = 'request_id';

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
  if (input.requestId !== undefined) fields[REQUEST_ID_KEY] = input.requestId;
  return fields;
}

/**
 * Writes one request's line at its level (nothing when the level is off). The request's id is a field of the line,
 * not a child logger's binding: a child logger per request would cost every request, logged or not.
 */
export function logRequest(logger: RequestLogger, input: RequestLogInput): void {
  // Below info (warn, error, silent) only a 5xx is logged: the path is read only when it decides the level.
  if (input.status < 500 && !logger.isLevelEnabled('info')) return;
  const url = input.url;
  const q = url.indexOf('?');
  const level = requestLogLevel(input.status, q < 0 ? url : url.slice(0, q), isOwnRead(input));
  if (logger.isLevelEnabled(level)) logger.line(level, requestLogFields(input));
}

// Every answer carries X-Request-Id, the id of its journal entry and its log line, so a client's report of one
// call finds the server's record of it. A client (or a proxy in front of it) that already tags its requests
// keeps its own id, when it is one the sandbox can safely echo into a header, a log and a JSON journal.
/** The header's name, as sent and as exposed to browser scripts. */
const REQUEST_ID_HEADER = 'X-Request-Id';

/** A client id the sandbox echoes: 1 to 128 characters of letters, digits and . _ : - (UUIDs, ULIDs, trace ids). */
export const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * New request ids: UUIDs (version 4 layout) of 74 random bits drawn once and a counter in their last 12 hex digits,
 * so no two ids of one sequence meet, and two sequences (another app, the process whose journal a bundle carries)
 * almost surely never. An id names a request's journal entry and log line and grants nothing, so it need not be
 * unguessable: counting costs each request far less than drawing and formatting random bytes.
 */
export function requestIds(): () => string {
  let prefix = '';
  let issued = COUNTER_SPAN;
  return () => {
    if (issued >= COUNTER_SPAN) {
      prefix = randomPrefix();
      issued = 0;
    }
    const count = (issued++).toString(16);
    return prefix + COUNTER_ZEROS.slice(count.length) + count;
  };
}

/** The counter's span: its 12 hex digits. */
const COUNTER_SPAN = 2 ** 48;
const COUNTER_ZEROS = '000000000000';

/** A random UUID without its last group: the version nibble 4, the variant bits 10 (RFC 9562). */
function randomPrefix(): string {
  const hex = randomBytes(10).toString('hex');
  const variant = '89ab'[Number.parseInt(hex[15]!, 16) & 0x3]!;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-${variant}${hex.slice(16, 19)}-`;
}

/** The client's id when it is valid (a single header, matching VALID_REQUEST_ID), otherwise a new UUID. */
export function requestIdFrom(headers: IncomingHttpHeaders, newId: () => string = randomUUID): string {
  const sent = headers['x-request-id'];
  return typeof sent === 'string' && VALID_REQUEST_ID.test(sent) ? sent : newId();
}

/** A request once its id is assigned. */
export type WithRequestId = IncomingMessage & { id?: string };

/** Gives the request its id (req.id, read by the journal and the log) and puts it on the answer. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, newId?: () => string): string {
  const id = requestIdFrom(req.headers, newId);
  (req as WithRequestId).id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * The app's first step: the request's id, unless the client sent one a new one: from the app's own sequence
 * (requestIds) on a laptop or in CI, random where the sandbox is shared (hosted), since consecutive ids of one
 * sequence would tell a reader how many requests other users made between two of theirs.
 */
export function identifyRequest({ shared }: { shared: boolean }): RequestHandler {
  const newId = shared ? randomUUID : requestIds();
  return (req, res, next) => {
    if (!requestIdOf(req)) assignRequestId(req, res, newId);
    next();
  };
}

/** The id assignRequestId gave the request, if it ran. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  return (req as WithRequestId).id;
}
