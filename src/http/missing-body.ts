import type { IncomingHttpHeaders } from 'node:http';
import type { RequestHandler } from 'express';

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

/** True when the request announces no body: neither chunked nor a non-zero Content-Length. */
export function sendsNoBody(headers: IncomingHttpHeaders): boolean {
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}
