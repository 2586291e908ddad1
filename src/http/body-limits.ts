// What a request body may hold, counted where the memory is: a JSON body after decompression (body-parser's
// `limit` counts the inflated bytes), a multipart body per field, per file and in all. Each refusal is a 413 whose
// message names the limit it passed.
import { Transform } from 'node:stream';
import { error as validatorErrors } from 'express-openapi-validator';
import type { MultipartLimits } from '../config.js';

/** The uploaded file's own limit, the contract's 5 MiB for a product image. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** What a file past MAX_FILE_BYTES hears, sent as a multipart part (413) or in a bundle (422). */
export const FILE_TOO_LARGE_MESSAGE = `The uploaded file is larger than ${formatBytes(MAX_FILE_BYTES)}.`;
const MAX_FILES = 1;
/** Bytes of a field's name (busboy's own default). */
const MAX_FIELD_NAME_BYTES = 100;

/** A size as the answers and the docs say it: whole KiB or MiB when it is one, else bytes. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The 413 message of a JSON (or form) body past its limit, after decompression. */
export function bodyTooLargeMessage(limit: number): string {
  return `The request body is larger than ${formatBytes(limit)} (counted after decompression).`;
}

/**
 * The validator's file uploader (multer) with these limits. multer has no limit on the whole body: the stream it
 * reads is counted on the way in, and past the total it fails with a 413 the validator passes on as it is.
 */
export function multipartUploader(limits: MultipartLimits): object {
  return {
    limits: {
      fields: limits.maxFields,
      fieldSize: limits.maxFieldBytes,
      fieldNameSize: MAX_FIELD_NAME_BYTES,
      fileSize: MAX_FILE_BYTES,
      files: MAX_FILES,
      parts: limits.maxFields + MAX_FILES,
    },
    streamHandler: (req: NodeJS.ReadableStream, busboy: NodeJS.WritableStream & { destroy(error: Error): void }) => {
      let received = 0;
      const counted = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          if (received <= limits.maxTotalBytes) return done(null, chunk);
          // multer hears of it through busboy, stops reading into memory and drains the rest.
          req.unpipe(counted);
          busboy.destroy(new validatorErrors.RequestEntityTooLarge({ path: '', message: multipartTotalMessage(limits) }));
          done();
        },
      });
      req.pipe(counted).pipe(busboy);
      // However multer ends (done, or failed on a limit of its own), the request is no longer fed to it.
      busboy.once('close', () => req.unpipe(counted));
    },
  };
}

function multipartTotalMessage(limits: MultipartLimits): string {
  return `The multipart body is larger than ${formatBytes(limits.maxTotalBytes)} (MULTIPART_MAX_TOTAL_BYTES).`;
}

/**
 * The 413 message for a multipart limit multer reported, by multer's own message (the validator keeps only that of
 * multer's error, and answers some of them 400); undefined for any other error.
 */
export function multipartLimitMessage(message: string | undefined, limits: MultipartLimits): string | undefined {
  switch (message) {
    case 'Too many fields':
      return `A multipart body may have at most ${limits.maxFields} text fields (MULTIPART_MAX_FIELDS).`;
    case 'Too many parts':
      return `A multipart body may have at most ${limits.maxFields + MAX_FILES} parts: ${limits.maxFields} text fields (MULTIPART_MAX_FIELDS) and ${MAX_FILES} file.`;
    case 'Field value too long':
      return `A multipart text field may hold at most ${formatBytes(limits.maxFieldBytes)} (MULTIPART_MAX_FIELD_BYTES).`;
    case 'Field name too long':
      return `A multipart field name may be at most ${MAX_FIELD_NAME_BYTES} bytes.`;
    case 'File too large':
      return FILE_TOO_LARGE_MESSAGE;
    case 'Too many files':
      return `A multipart body may carry at most ${MAX_FILES} file.`;
    default:
      return undefined;
  }
}
