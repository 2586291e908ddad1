// Express's res.send answers 304 whenever `req.fresh`, and `If-None-Match: *` is fresh for any answer, ETag or not:
// every read of the API and the control plane answered a 304 its operation does not document (and the coverage
// report listed it as undocumented). An operation decides its conditional answers itself, as the contract says
// (listSandboxRequests compares its ETag and returns its documented 304); anything else the app serves (the docs
// pages, the inspector's assets, the icon) keeps Express's check.
import type { Express, Request } from 'express';

/** Makes `req.fresh` false for a request that matched an operation; set once on the app's request prototype. */
export function operationsAnswerConditionalsThemselves(app: Express): void {
  let owner: object | null = app.request;
  let inherited: PropertyDescriptor | undefined;
  while (owner !== null && (inherited = Object.getOwnPropertyDescriptor(owner, 'fresh')) === undefined) owner = Object.getPrototypeOf(owner) as object | null;
  const fresh = inherited?.get;
  if (fresh === undefined) throw new Error("Express's request has no `fresh` getter");
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request): boolean {
      return this.state?.operation === undefined && (fresh.call(this) as boolean);
    },
  });
}
