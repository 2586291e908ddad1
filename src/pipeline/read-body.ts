// Reading a request's body, once its caller may call the operation: JSON with its limit counted after
// decompression, multipart with the limits of src/http/body-limits.ts. Only a body the operation takes is read:
// one sent to an operation that takes none cannot answer 400, 413 or 415 there (the real service ignores it).
import type { Request, RequestHandler, Response } from 'express';
import express from 'express';
import multer from 'multer';
import type { UploadedFile } from '../areas/handler-map.js';
import type { OperationFacts } from '../contract/document/operation-facts.js';
import type { MultipartLimits } from '../config.js';
import { multipartUploader } from '../http/body-limits.js';
import { httpError } from '../http/errors.js';
import { missingBodyIsEmpty } from '../http/missing-body.js';
import { blankJsonIsNoBody } from '../http/required-body.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

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

/** The body reader of a configuration: JSON up to its limit (inflated), multipart within its limits. */
export function bodyReader(limits: BodyLimits): ReadBody {
  // A body of only whitespace or `null` is no body (src/http/required-body.ts).
  const json = blankJsonIsNoBody(express.json({ limit: limits.bodyLimit, type: () => true }));
  const bundle = blankJsonIsNoBody(express.json({ limit: limits.bundleMaxBytes, type: () => true }));
  const files = multer(multipartUploader(limits.multipart)).any();
  return async (req, res, body, bodyLimit) => {
    let uploaded: UploadedFile[] = [];
    if (body.any && req.is(JSON_TYPES)) await run(bodyLimit === 'bundle' ? bundle : json, req, res);
    else if (body.multipart && req.headers['content-type']?.includes('multipart/form-data')) {
      await run(files, req, res).catch((error: unknown) => multipartError(error));
      uploaded = (req.files as UploadedFile[] | undefined) ?? [];
      // The validator checks a file field as present (multer holds its bytes apart): an empty string stands for it.
      for (const file of uploaded) (req.body as Record<string, unknown>)[file.fieldname] = '';
    }
    await run(missingBodyIsEmpty, req, res);
    return uploaded;
  };
}

function run(step: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => void step(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(error))));
}

/**
 * multer's refusals as answers: a limit it counts is 413 or 400 by multer's own message (the error handler names
 * the limit), a body without its boundary 400; the total-size limit (body-limits.ts) comes as its own 413.
 */
function multipartError(error: unknown): never {
  if (error instanceof multer.MulterError) {
    const tooBig = /LIMIT_(FILE|PART)_(SIZE|COUNT)/.test(error.code);
    // Not an HttpError: the error handler words it by multer's message (multipartLimitMessage).
    throw Object.assign(new Error(error.message), { status: tooBig ? 413 : 400 });
  }
  if (/Multipart: Boundary not found/i.test((error as Error)?.message ?? '')) httpError(400, 'multipart file(s) required');
  throw error;
}
