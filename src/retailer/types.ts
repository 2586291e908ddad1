/** Faults a test can ask the retailer for (the sandbox's `Prefer: retailer-fault`). */
export type InjectedFault = 'throttle' | 'timeout' | 'error';

/** HTTP methods the relay forwards; the retailer answers no others. */
export type RetailerMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One call to the simulated retailer, as the relay hands it over (the endpoint already validated). */
export interface RetailerRequest {
  method: RetailerMethod;
  /** Retailer path without a leading slash, e.g. `orders/v0/orders`. */
  path: string;
  /** Query parameters; repeated parameters arrive as arrays. */
  query: Record<string, string | string[] | undefined>;
  body?: unknown;
  /** The bearer the caller presents; the retailer accepts only the channel's current access token. */
  accessToken: string;
  now: Date;
  /** Fail this way instead of running the operation (a test asked for it). */
  fault?: InjectedFault;
}

/** Why the retailer refused a call before running it, so the relay can react (refresh, 429) without parsing bodies. */
export type RetailerFailure = 'invalid_token' | 'expired_token' | 'throttled' | 'timeout';

/** What the retailer answers: status, JSON body (undefined for an empty body) and headers. */
export interface RetailerResponse {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  failure?: RetailerFailure;
}

/** What one API operation answers before the retailer adds headers. */
export interface OperationResult {
  status: number;
  body: unknown;
}
