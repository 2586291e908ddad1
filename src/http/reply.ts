import type { Response } from 'express';

/** What a handler returns: the status, the JSON body (none for 204) and extra headers. One adapter sends it. */
export interface Reply<S extends number = number, B = unknown> {
  status: S;
  body: B;
  headers?: Record<string, string>;
}

export const ok = <B>(body: B): Reply<200, B> => ({ status: 200, body });
export const created = <B>(body: B): Reply<201, B> => ({ status: 201, body });
export const noContent = (): Reply<204, undefined> => ({ status: 204, body: undefined });
export const reply = <S extends number, B>(status: S, body: B, headers?: Record<string, string>): Reply<S, B> => ({
  status,
  body,
  headers,
});

/** The one place a JSON answer is written: through res.json, so the response validator checks it. */
export function sendReply(res: Response, { status, body, headers }: Reply): void {
  if (headers) res.set(headers);
  res.status(status);
  if (status === 204 || body === undefined) res.end();
  else res.json(body);
}
