// Reading a request's body, once its caller may call the operation: JSON with its limit counted after
// decompression, multipart with the limits of src/http/body-limits.ts. Only a body the operation takes is read:
// one sent to an operation that takes none cannot answer 400, 413 or 415 there (the real service ignores it).
// And what counts as no body: none sent, whitespace or `null` (a required one answers 422 `required`). An optional
// body that did not come is `{}`; one the client typed as JSON and then sent as `null` or no bytes is a body that is
// not an object (422), as `[]` is: the Content-Type says a JSON value follows.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Request, RequestHandler, Response } from 'express';
import express from 'express';
import type Multer from 'multer';
import type { UploadedFile } from '../areas/handler-map.js';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import type { MultipartLimits } from '../config.js';
import { multipartUploader } from '../http/body-limits.js';
import { httpError, unprocessable } from '../http/errors.js';
import type { Lanes } from '../http/heavy-lanes.js';
import type { TurnQueue } from '../http/turn-queue.js';
import { bundleBodyReader } from './read-bundle-body.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

// multer and busboy are loaded by the first multipart body, not by every start: most runs never upload a file.
const loadMulter = (): typeof Multer => createRequire(import.meta.url)('multer') as typeof Multer;

/** Reads the body an operation takes; answers the uploaded files (none but for multipart). */
export type ReadBody = (req: Request, res: Response, body: OperationFacts['body'], bodyLimit: OperationFacts['bodyLimit']) => Promise<UploadedFile[]>;

/** The limits a body is read within. */
export interface BodyLimits {
  /** Bytes of a JSON body, inflated (BODY_LIMIT_BYTES). */
  bodyLimit: number;
  /** Bytes of a workspace bundle's JSON body, inflated (BUNDLE_MAX_BYTES), for an operation that declares it takes one. */
  bundleMaxBytes: number;
  multipart: MultipartLimits;
}

/**
 * The body reader of a configuration: JSON up to its limit (inflated), a bundle's JSON parsed in a turn of `turns`
 * (src/pipeline/read-bundle-body.ts), multipart within its limits.
 */
export function bodyReader(limits: BodyLimits, turns: TurnQueue, lanes: Lanes): ReadBody {
  // A body of only whitespace or `null` is no body (blankJsonIsNoBody below).
  const json = blankJsonIsNoBody(express.json({ limit: limits.bodyLimit, type: () => true }));
  const bundle = blankJsonIsNoBody(bundleBodyReader(limits.bundleMaxBytes, turns, lanes));
  let files: RequestHandler | undefined;
  return async (req, res, body, bodyLimit) => {
    let uploaded: UploadedFile[] = [];
    if (body.any && req.is(JSON_TYPES)) {
      await run(bodyLimit === 'bundle' ? bundle : json, req, res);
      // No bytes, whitespace or `null`, under a JSON Content-Type.
      if (req.state && sentNoBody(req)) req.state.typedBlankBody = true;
    } else if (body.multipart && isMultipartBody(req.headers)) {
      refuseEncodedMultipart(req.headers);
      files ??= loadMulter()(multipartUploader(limits.multipart)).any();
      await run(files, req, res).catch((error: unknown) => multipartError(error));
      uploaded = (req.files as UploadedFile[] | undefined) ?? [];
      // The validator checks a file field as present (multer holds its bytes apart): an empty string stands for it.
      for (const file of uploaded) (req.body as Record<string, unknown>)[file.fieldname] = '';
    }
    await run(missingBodyIsEmpty, req, res);
    return uploaded;
  };
}

/**
 * Whether a refusal of reading the body is about the form of its bytes: they do not parse as their media type (400),
 * or come in an encoding or charset the reader does not take (415).
 */
export function refusesBodyForm(error: unknown): boolean {
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return status === 400 || status === 415;
}

function run(step: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => void step(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error))));
}

/**
 * multer's refusals as answers: a limit it counts is 413 or 400 by multer's own message (the error handler names
 * the limit), a body without its boundary or whose bytes do not parse 400; the total-size limit (body-limits.ts)
 * comes as its own 413.
 */
function multipartError(error: unknown): never {
  if (error instanceof loadMulter().MulterError) {
    const tooBig = /LIMIT_(FILE|PART)_(SIZE|COUNT)/.test(error.code);
    // Not an HttpError: the error handler words it by multer's message (multipartLimitMessage).
    throw Object.assign(new Error(error.message), { status: tooBig ? 413 : 400 });
  }
  const message = (error as Error)?.message ?? '';
  if (/Multipart: Boundary not found/i.test(message)) httpError(400, 'multipart file(s) required');
  // busboy's refusals of the bytes themselves: a body cut off before its closing boundary, a part header that does
  // not parse. The client's malformed body, as malformed JSON is.
  if (MALFORMED_MULTIPART.test(message)) httpError(400, `The multipart body is malformed: ${message}.`);
  throw error;
}

/**
 * multer reads a multipart body as sent, never inflated: a compressed one would be parsed as its compressed bytes
 * (a malformed form, or a form without its fields). It is refused before a byte is read, in the words the JSON
 * parser uses for an encoding it does not take (415).
 */
function refuseEncodedMultipart(headers: IncomingHttpHeaders): void {
  const encoding = (headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity') httpError(415, `unsupported content encoding "${encoding}"`);
}

/** busboy's errors for multipart bytes that do not parse (node_modules/busboy/lib/types/multipart.js). */
const MALFORMED_MULTIPART = /^(Unexpected end of (form|file)|Malformed part header)$/;

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * A POST, PUT or PATCH that carries no body and no Content-Type is read as an empty JSON object, as Laravel reads
 * it: the answer is a 422 naming the required fields, not a 415 about a media type the client never sent.
 * A body without a Content-Type is still refused (415), since its format is unknown.
 */
export const missingBodyIsEmpty: RequestHandler = (req, _res, next) => {
  if (WITH_BODY.has(req.method) && sendsNoBody(req.headers) && req.headers['content-type'] === undefined && req.body === undefined) {
    req.headers['content-type'] = 'application/json';
    req.body = {};
  }
  next();
};

/** True when the request's body is announced as multipart/form-data (media types match in any case). */
export const isMultipartBody = (headers: IncomingHttpHeaders): boolean => /^\s*multipart\/form-data\b/i.test(headers['content-type'] ?? '');

/** True when the request announces no body: neither chunked nor a non-zero Content-Length. */
export function sendsNoBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

type WithBody = IncomingMessage & { body?: unknown };

/**
 * Wraps the JSON body parser so a body of only whitespace or `null` is read as no body rather than as malformed
 * JSON (400): a client that serialises "nothing" sends one of these, and the operation's answer to it is the same
 * as to a missing body (requireBody below). Every other parse failure goes on as the parser's error.
 */
export function blankJsonIsNoBody(parser: RequestHandler): RequestHandler {
  return (req, res, next) =>
    parser(req, res, (error?: unknown) => {
      if (error !== undefined && isBlankParseFailure(error)) {
        req.body = undefined;
        // The request's state says so (RequestState.blankBody): no body, as far as the contract goes.
        if (req.state) req.state.blankBody = true;
        return next();
      }
      // The parsers take an object or an array only; a number, a string or a boolean is valid JSON all the same, a
      // body that is not an object (422 from the validator, as `[]` is), not malformed bytes (400).
      const scalar = error === undefined ? undefined : jsonScalarOf(error);
      if (scalar !== undefined) {
        req.body = scalar.value;
        return next();
      }
      next(error);
    });
}

function isBlankParseFailure(error: unknown): boolean {
  const { type, body } = error as { type?: unknown; body?: unknown };
  return type === 'entity.parse.failed' && typeof body === 'string' && /^\s*(null\s*)?$/.test(body);
}

/** The value of a parse failure's text when it is a JSON number, string or boolean (the strict parse refuses those). */
function jsonScalarOf(error: unknown): { value: number | string | boolean } | undefined {
  const { type, body } = error as { type?: unknown; body?: unknown };
  if (type !== 'entity.parse.failed' || typeof body !== 'string' || !/^\s*[-\d"tf]/.test(body)) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** True when the client sent no body: no bytes, whitespace only or `null` (the parsers read no bytes as `{}`). */
function sentNoBody(req: WithBody): boolean {
  if (req.state?.blankBody) return true;
  const body = req.body;
  const empty = body === undefined || body === null || (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  return empty && sendsNoBody(req.headers);
}

/**
 * The step after the records are bound and before the validator's verdict: an operation whose contract says its
 * JSON body is required (`required`) answers 422 `The body field is required.` when none came; an optional one
 * typed as JSON that came as `null` or no bytes answers 422 as any other body that is not an object. An operation
 * that takes another media type only is left to the validator's 415.
 */
export function requireBody(req: WithBody, required: boolean): void {
  if (required && sentNoBody(req)) unprocessable({ body: ['The body field is required.'] });
  if (!required && req.state?.typedBlankBody) unprocessable({ body: [NOT_AN_OBJECT] });
}

/** The validator's own words for a body that is not an object (`[]`), so every such body reads the same. */
const NOT_AN_OBJECT = 'The body field must be object.';

/**
 * Wraps request validation so an optional JSON body that did not come is not validated: the body is read as `{}`
 * everywhere (the handler, the journal), which need not be a valid instance of the operation's body schema (a
 * workspace bundle has required fields; creating a workspace takes none). `body` is what the operation takes.
 */
export function absentOptionalBodyUnchecked(
  validate: RequestHandler,
  bodyOf: (req: IncomingMessage) => { any: boolean; required: boolean } | undefined,
): RequestHandler {
  return (req, res, next) => {
    const body = bodyOf(req);
    if (!body?.any || body.required || !sentNoBody(req)) return validate(req, res, next);
    const read = req.body as unknown;
    req.body = undefined;
    validate(req, res, (error?: unknown) => {
      req.body = read;
      next(error);
    });
  };
}
