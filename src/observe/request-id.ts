// Every answer carries X-Request-Id, the id of its journal entry and its log line, so a client's report of one
// call finds the server's record of it. A client (or a proxy in front of it) that already tags its requests
// keeps its own id, when it is one the sandbox can safely echo into a header, a log and a JSON journal.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

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

/** Gives the request its id (req.id, read by the journal and the log) and puts it on the answer. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse, newId?: () => string): string {
  const id = idRequest(req, newId);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The app's first step: the request's id, unless a layer in front of Express gave it one already. */
export const identifyRequest: RequestHandler = (req, res, next) => {
  if (!requestIdOf(req)) assignRequestId(req, res);
  next();
};

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
