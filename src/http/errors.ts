import type { components } from '../contract/document/generated.js';

/** Field errors in Laravel's shape (field path -> messages), as the contract's ValidationError gives them. */
export type FieldErrors = components['schemas']['ValidationError']['errors'];

/**
 * An error that becomes an HTTP answer. Handlers throw these through the factories below; the one error handler
 * turns them into `{ message, errors? }` bodies.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * Thrown for a resource the caller may not touch; the error handler answers 404 where the operation documents no
 * 403, with `hiddenAs`: the message of the 404 an unknown record of that kind gets, so that answer never tells the
 * record exists.
 */
export class ForbiddenError extends HttpError {
  constructor(
    message = 'This action is unauthorized.',
    readonly hiddenAs = 'Not found.',
  ) {
    super(403, message);
  }
}

const capitalize = (what: string) => what.charAt(0).toUpperCase() + what.slice(1);

/** The message of the 404 for an unknown record of this kind (`merchant`: 'Merchant not found.'). */
export const notFoundMessage = (what: string): string => `${capitalize(what)} not found.`;

export function notFound(what: string): never {
  throw new HttpError(404, notFoundMessage(what));
}

/** 403 for a record of kind `what` the caller may not touch: 404 as an unknown one where no 403 is documented. */
export function forbidden(message?: string, what?: string): never {
  throw new ForbiddenError(message, what === undefined ? undefined : notFoundMessage(what));
}

/** What a token of a workspace that no longer exists hears (deleted, or expired unused). */
export const WORKSPACE_GONE_MESSAGE =
  'The workspace of this token no longer exists (it was deleted, or expired after being unused); create a new one with POST /_sandbox/workspaces.';

/** What a workspace token hears where the default world holds a loaded bundle (--load): which tokens act on it. */
export const LOADED_WORLD_TOKEN_MESSAGE =
  "This sandbox serves a loaded workspace bundle in its default world (--load); a workspace's tokens from the run that exported it do not carry over. The default world's demo tokens act on the loaded world (demo-owner-token, demo-member-token, demo-outsider-token, demo-rival-token), and so do the tokens the start banner lists for the users the run made with POST /_sandbox/users (POST /_sandbox/users/{user}/tokens issues another).";

/** What a default-world demo token hears in hosted mode, where the default world is nobody's to use. */
export const HOSTED_DEFAULT_TOKEN_MESSAGE =
  'The demo tokens of the default world are not accepted here; create your own workspace with POST /_sandbox/workspaces and use its tokens.';

export function unauthenticated(message = 'Unauthenticated.'): never {
  throw new HttpError(401, message);
}

/** Laravel's 422: the message is the first error, with "(and N more errors)" when there are several. */
export function unprocessable(errors: FieldErrors, message?: string): never {
  throw new HttpError(422, message ?? summarize(errors), errors);
}

export function tooManyRequests(message: string, retryAfterSeconds: number): never {
  throw new HttpError(429, message, undefined, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}

export function httpError(status: number, message: string, errors?: FieldErrors, headers?: Record<string, string>): never {
  throw new HttpError(status, message, errors, headers);
}

export function summarize(errors: FieldErrors): string {
  const messages = Object.values(errors).flat();
  if (messages.length === 0) return 'The given data was invalid.';
  const more = messages.length - 1;
  return more === 0 ? messages[0] : `${messages[0]} (and ${more} more error${more === 1 ? '' : 's'})`;
}
