import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Express, Response } from 'express';
import { unprocessable, type FieldErrors } from './errors.js';

/** What a handler returns: the status, the JSON body (none for 204) and extra headers. One adapter sends it. */
export interface Reply<S extends number = number, B = unknown> {
  status: S;
  body: B;
  headers?: Record<string, string>;
  /** The request headers the answer was chosen by, added to `Vary` (beside the `Origin` CORS may have put there). */
  vary?: string;
  /** A media type other than JSON, for a text body (see TextReply). */
  type?: string;
  /** A large JSON body already serialised, in pieces the adapter writes one per turn of the event loop (see jsonPieces). */
  pieces?: readonly Buffer[];
  /** Called once the answer is sent or its client is gone (what the reply held can be let go). */
  onDone?: () => void;
  /**
   * The JSON body already serialized and checked against the contract when it was first answered: a replayed answer
   * (src/pipeline/replay-cache.ts), sent as these bytes.
   */
  json?: Buffer;
}

/** A handler's refusal of its input: 422 with every collected field error at once (checks first, then writes), so a client fixes its request in one go. */
export function failOn(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) unprocessable(errors);
}

/**
 * A reply whose body is a text in a media type other than JSON (a report rendered as text/markdown). The response
 * validator checks JSON only, so the adapter checks the type is one the operation documents for the status.
 */
export type TextReply<S extends number = number, T extends string = string> = Reply<S, string> & { type: T };

export const ok = <B>(body: B): Reply<200, B> => ({ status: 200, body });
export const created = <B>(body: B): Reply<201, B> => ({ status: 201, body });
export const noContent = (): Reply<204, undefined> => ({ status: 204, body: undefined });
export const reply = <S extends number, B>(status: S, body: B, headers?: Record<string, string>): Reply<S, B> => ({
  status,
  body,
  headers,
});

/** A rendered text in one of the operation's documented non-JSON media types. */
export const text = <S extends number, T extends string>(status: S, type: T, body: string): TextReply<S, T> => ({ status, body, type });

/**
 * A JSON body of megabytes (a workspace's bundle), serialised by the handler in pieces with turns of the event loop
 * between them. Written whole at once (res.json serialises, hashes for an ETag, encodes and validates it in one go)
 * it held every other client for as long; the pieces are written one per turn instead, so no response validation
 * runs over it: the handler builds it from the contract's own parts, and loading it back checks its shape.
 */
export const jsonPieces = <S extends number>(status: S, pieces: readonly Buffer[], onDone?: () => void): Reply<S, never> => ({
  status,
  // The body is in the pieces: none to serialise here (and `never` stands for the contract's body type, whatever it is).
  body: undefined as never,
  pieces,
  onDone,
});

/**
 * The one place an answer is written: JSON through res.json, so the response validator checks it (a replayed answer
 * as the bytes it was checked as); a text reply
 * (its media type already checked against the contract) as written; JSON in pieces (jsonPieces) one per turn.
 */
export function sendReply(res: Response, { status, body, headers, vary, type, pieces, onDone, json }: Reply & { type?: string }): void | Promise<void> {
  // Sent (finish) or abandoned (close), whichever comes first; onDone runs once.
  if (onDone) {
    let done = false;
    const once = () => (done ? undefined : ((done = true), onDone()));
    res.once('finish', once).once('close', once);
  }
  if (headers) res.set(headers);
  if (vary) res.vary(vary);
  res.status(status);
  if (pieces) return writePieces(res, pieces);
  // The kept bytes' Content-Type as res.json gave it (Express's res.set would parse it again to the same text).
  if (json !== undefined) res.setHeader('Content-Type', 'application/json; charset=utf-8').send(json);
  else if (status === 204 || body === undefined) res.end();
  else if (type !== undefined) res.type(type).send(String(body));
  else res.json(body);
}

async function writePieces(res: Response, pieces: readonly Buffer[]): Promise<void> {
  res.type('application/json');
  res.set('Content-Length', String(pieces.reduce((sum, piece) => sum + piece.length, 0)));
  const last = pieces.length - 1;
  for (const [i, piece] of pieces.entries()) {
    if (res.destroyed) return;
    // The last piece ends the answer in the same write: once a client holds every byte it may ask again at once (a
    // kept-alive connection), and what the answer held (onDone, on finish) must be let go by then, not a turn later.
    if (i === last) return void res.end(piece);
    // Backpressure: a slow client is waited for, never buffered for.
    if (!res.write(piece)) await new Promise<void>((resolve) => (res.once('drain', resolve), res.once('close', resolve)));
    await nextTurn();
  }
  res.end();
}

/** A JSON answer as serialized once: the body res.json was given and the bytes sent for it. */
export interface SentJson {
  body: unknown;
  bytes: Buffer;
}

/**
 * Makes the app's innermost res.json (the checks and observers wrap it): Express's own, JSON.stringify with no
 * replacer or spaces as the app configures none and the Content-Type Express gives, serialized into the Buffer that
 * is sent and noted in the request's state (`sentJson`), so a kept answer holds the very bytes answered instead of
 * serializing the body again. A response whose Content-Type is already set goes to Express's res.json, which adds
 * the charset to it. Set once on the app's response prototype (`app.response`, Express's documented way to override
 * a response method), never as a function of each response's own (keepJsonBodies, src/observe/observe-requests.ts,
 * says why).
 */
export function sendJsonAsBytes(app: Express): void {
  const json = app.response.json;
  app.response.json = function (this: Response, body?: unknown) {
    if (this.get('Content-Type') !== undefined) return json.call(this, body);
    const text = JSON.stringify(body);
    if (text === undefined) return json.call(this, body);
    const bytes = Buffer.from(text);
    if (this.req.state) this.req.state.sentJson = { body, bytes };
    return this.set('Content-Type', 'application/json').send(bytes);
  };
}
