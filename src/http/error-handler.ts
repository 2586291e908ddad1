import type { ErrorRequestHandler, Request, Response } from 'express';
import { HttpError, ForbiddenError, summarize } from './errors.js';
import { bodyTooLargeMessage, multipartLimitMessage } from './body-limits.js';
import { defaultConfig, type MultipartLimits } from '../config.js';
import { redactUrl } from '../observe/redact.js';
import { locate, toFieldErrors, type ValidatorError } from './validation-errors.js';
import { QuotaExceeded } from '../store/quota-exceeded.js';
import { MemoryRefused } from '../memory-reservations.js';
import { WorkspaceRefused } from '../worlds.js';

type Logger = (line: string) => void;

/**
 * The one place errors become answers. Handler errors keep their status (403 becomes 404 where the operation
 * documents no 403); the validator's request errors become Laravel 422s, except a malformed UUID in a path, which
 * the real service answers 404 (route-model binding finds nothing); body-parser errors keep their 400/413.
 * Anything else is a bug: logged with its stack and answered 500 without internals.
 */
export function errorHandler(log?: Logger, limits: BodyLimits = DEFAULT_BODY_LIMITS): ErrorRequestHandler {
  const serverError = (req: Request, res: Response, cause: unknown) => {
    logServerError(log, req.method, req.originalUrl, cause);
    // Sent without res.json: a 500 is never documented, and the response validator must not recurse on it.
    forgetRepresentation(res);
    res.status(500).type('application/json').end(SERVER_ERROR_BODY);
  };
  return (err, req, res, next) => {
    if (res.headersSent) return next(err);
    // Whatever fails in here is answered as JSON too: an error escaping this handler reaches Express's own HTML page.
    try {
      const answer = toAnswer(err, req, limits);
      if (!answer) return serverError(req, res, err);
      forgetRepresentation(res);
      if (answer.headers) res.set(answer.headers);
      res.status(answer.status).json(answer.body);
    } catch (failure) {
      if (res.headersSent) return next(failure);
      serverError(req, res, failure);
    }
  };
}

/**
 * Drops what a step set about the answer it meant to send before it failed (a static file's type and validators,
 * before its 416): res.json keeps a Content-Type already set, so the error's JSON went out labelled text/css.
 */
function forgetRepresentation(res: Response): void {
  for (const name of ['Content-Type', 'ETag', 'Last-Modified']) res.removeHeader(name);
}

/** A bug, written with its stack to `log` (stderr by default): the one line every 500 leaves, whichever path answered it. */
export function logServerError(log: Logger | undefined, method: string | undefined, url: string | undefined, cause: unknown): void {
  (log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
    `[sandbox] 500 on ${method} ${url === undefined ? url : redactUrl(url)}: ${(cause as Error)?.stack ?? String(cause)}`,
  );
}

/** What a bug is answered with: nothing of the cause leaves the server. */
export const SERVER_ERROR_BODY = JSON.stringify({ message: 'Server Error' });

/** An error as an answer: its status, its JSON body and its headers. */
export interface ErrorAnswer {
  status: number;
  body: { message: string; errors?: Record<string, string[]> };
  headers?: Record<string, string>;
}

/** A handler's HttpError as it is answered. */
export function httpErrorAnswer(err: HttpError): ErrorAnswer {
  const body = err.errors ? { message: err.message, errors: err.errors } : { message: err.message };
  return { status: err.status, body, headers: err.headers };
}

/**
 * A workspace quota, named with the variable that sets it: 422 for records (a rule of the workspace, like a
 * uniqueness rule), 413 for upload bytes (the upload is what does not fit).
 */
function quotaAnswer(err: QuotaExceeded): ErrorAnswer {
  if (err.quota === 'upload bytes') {
    const mib = Math.floor(err.limit / 2 ** 20);
    return {
      status: 413,
      body: {
        message: `This upload would take the workspace's uploads past their quota of ${mib} MiB (WORKSPACE_MAX_UPLOAD_MB); delete images or reset the workspace.`,
      },
    };
  }
  const message = `The workspace already holds the ${err.limit} records it may add, its quota (WORKSPACE_MAX_RECORDS); delete some or reset the workspace.`;
  return { status: 422, body: { message, errors: { quota: [message] } } };
}

/** The limits a 413 names. */
export interface BodyLimits {
  bodyLimit: number;
  multipart: MultipartLimits;
}

const DEFAULT_BODY_LIMITS: BodyLimits = { bodyLimit: defaultConfig.bodyLimit, multipart: defaultConfig.multipart };

function toAnswer(err: unknown, req: Request, limits: BodyLimits): ErrorAnswer | undefined {
  const documents403 = req.state?.operation?.facts.statuses.has(403) === true;
  if (err instanceof ForbiddenError && !documents403) return { status: 404, body: { message: err.hiddenAs } };
  if (err instanceof HttpError) return httpErrorAnswer(err);
  if (err instanceof QuotaExceeded) return quotaAnswer(err);
  // Work refused before it started (memory short, or too much of its kind in flight): retry later.
  if (err instanceof MemoryRefused) return { status: 503, body: { message: err.message }, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
  // A workspace the registry could not make: 429 at MAX_WORKSPACES, 503 short of memory.
  if (err instanceof WorkspaceRefused) {
    return { status: err.reason === 'limit' ? 429 : 503, body: { message: err.message }, headers: { 'Retry-After': String(err.retryAfterSeconds) } };
  }
  const e = err as { status?: number; type?: string; errors?: ValidatorError[]; message?: string; name?: string };
  if (e?.type === 'entity.parse.failed') return { status: 400, body: { message: 'The request body is not valid JSON.' } };
  // zlib's own words for bytes that do not decompress (`incorrect header check`) name neither the body nor its encoding.
  if (e?.status === 400 && isZlibError(err)) return { status: 400, body: { message: undecodableMessage(req, err.message) } };
  // body-parser's limit (its own, or the consent form's) counts the bytes after decompression.
  if (e?.type === 'entity.too.large')
    return {
      status: 413,
      body: { message: bodyTooLargeMessage(typeof (e as { limit?: unknown }).limit === 'number' ? (e as { limit: number }).limit : limits.bodyLimit) },
    };
  if (e?.type === 'charset.unsupported' || e?.type === 'encoding.unsupported') return { status: 415, body: { message: e.message ?? 'Unsupported encoding.' } };
  if (typeof e?.status !== 'number' || e.status >= 500 || e.status < 400) return undefined;
  const multipartLimit = (e.status === 400 || e.status === 413) && multipartLimitMessage(e.message, limits.multipart);
  if (multipartLimit) return { status: 413, body: { message: multipartLimit } };
  if (e.status === 400 && Array.isArray(e.errors)) return fromRequestValidation(e.errors);
  // The validator names the media type sent, which a body without a Content-Type (or an empty one) has none of.
  if (e.status === 415 && (req.headers['content-type'] ?? '').trim() === '') return { status: 415, body: { message: NO_MEDIA_TYPE } };
  // The pipeline routes (404, 405) and authenticates (401) before the validator runs, and answers those itself as
  // HttpErrors above; the validator checks only a matched operation's input (validateSecurity is off).
  return { status: e.status, body: { message: e.message ?? 'Request error.' } };
}

/**
 * An error of node:zlib's decoders, which body-parser hands on as a 400: inflate's codes are Z_DATA_ERROR, Z_BUF_ERROR
 * and kin, brotli's ERR__ERROR_FORMAT_PADDING_2 and kin, zstd's ZSTD_error_prefix_unknown and kin.
 */
const isZlibError = (err: unknown): err is Error =>
  err instanceof Error && /^(?:Z_[A-Z_]+|ERR__ERROR_[A-Z0-9_]+|ZSTD_error_\w+)$/.test(String((err as { code?: unknown }).code));

const undecodableMessage = (req: Request, reason: string): string =>
  `The request body does not decompress as its Content-Encoding (${String(req.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase()}) says: ${reason}.`;

const NO_MEDIA_TYPE = 'The request has a body but no Content-Type header: send it with the media type the operation takes.';

function fromRequestValidation(errors: ValidatorError[]): ErrorAnswer {
  const badUuidInPath = errors.some(
    (error) => locate(error.path).part === 'params' && error.errorCode === 'format.openapi.validation' && /uuid/.test(error.message ?? ''),
  );
  if (badUuidInPath) return { status: 404, body: { message: 'Not found.' } };
  const fieldErrors = toFieldErrors(errors);
  return { status: 422, body: { message: summarize(fieldErrors), errors: fieldErrors } };
}
