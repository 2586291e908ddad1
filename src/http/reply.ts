import type { Response } from 'express';
import { unprocessable, type FieldErrors } from './errors.js';

/** What a handler returns: the status, the JSON body (none for 204) and extra headers. One adapter sends it. */
export interface Reply<S extends number = number, B = unknown> {
  status: S;
  body: B;
  headers?: Record<string, string>;
  /** A media type other than JSON, for a text body (see TextReply). */
  type?: string;
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
 * The one place an answer is written: JSON through res.json, so the response validator checks it; a text reply
 * (its media type already checked against the contract) as written.
 */
export function sendReply(res: Response, { status, body, headers, type }: Reply & { type?: string }): void {
  if (headers) res.set(headers);
  res.status(status);
  if (status === 204 || body === undefined) res.end();
  else if (type !== undefined) res.type(type).send(String(body));
  else res.json(body);
}
