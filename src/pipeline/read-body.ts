// Reading a request's body, once its caller may call the operation: JSON with its limit counted after
// decompression, multipart with the limits of src/http/body-limits.ts. Only a body the operation takes is read:
// one sent to an operation that takes none cannot answer 400, 413 or 415 there (the real service ignores it).
import type { Request, RequestHandler, Response } from 'express';
import express from 'express';
import multer from 'multer';
import type { UploadedFile } from '../contract/handler-map.js';
import type { OperationFacts } from '../contract/operation-facts.js';
import { multipartUploader, type MultipartLimits } from '../http/body-limits.js';
import { httpError } from '../http/errors.js';
import { missingBodyIsEmpty } from '../http/missing-body.js';
import { blankJsonIsNoBody } from '../http/required-body.js';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** Reads the body an operation takes; answers the uploaded files (none but for multipart). */
export type ReadBody = (req: Request, res: Response, body: OperationFacts['body']) => Promise<UploadedFile[]>;

/** The body reader of a configuration: JSON up to `bodyLimit` bytes (inflated), multipart within `multipart`. */
export function bodyReader(bodyLimit: number, multipartLimits: MultipartLimits): ReadBody {
  // A body of only whitespace or `null` is no body (src/http/required-body.ts).
  const json = blankJsonIsNoBody(express.json({ limit: bodyLimit, type: () => true }));
  const files = multer(multipartUploader(multipartLimits)).any();
  return async (req, res, body) => {
    let uploaded: UploadedFile[] = [];
    if (body.any && req.is(JSON_TYPES)) await run(json, req, res);
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
