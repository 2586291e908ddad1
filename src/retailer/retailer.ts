import { randomUUID } from 'node:crypto';
import { checkAccessToken } from './auth/grants.js';
import { endpointCheck, type EndpointSchema } from './endpoint.js';
import { injectedFault } from './faults.js';
import { invalidInput, retailerError } from './errors.js';
import { DEFAULT_MARKETPLACE_ID } from './marketplaces.js';
import { matchOperation, type RetailerOperation } from './operation.js';
import { RETAILER_OPERATIONS } from './operations.js';
import { RateLimiter, type RateLimit } from './rate-limit.js';
import type { RetailerStatePort } from './state-port.js';
import type { OperationResult, RetailerFailure, RetailerRequest, RetailerResponse } from './types.js';
import { SellerAccountCache } from './seller-account-cache.js';
import type { SellerAccount } from './seller-account-types.js';

/** How a sandbox instance runs its retailer. */
export interface RetailerOptions {
  /** The sandbox's SEED; with the channel id it fixes every channel's generated data. */
  seed: number;
  /** Generated timestamps lie before this (the seed's reference date). */
  refDate?: Date;
  /** The usage plan per operation; answer null to switch throttling off for it. Default: the modelled API's. */
  rateLimit?: (operation: RetailerOperation) => RateLimit | null;
  /** Ids for submissions and request ids. */
  newId?: () => string;
  /** The contract's schema of a relayed endpoint: the retailer refuses any other path before it looks further. */
  endpoint: EndpointSchema;
}

/** The channel a call is made for: who it is, its marketplace, and where its retailer state lives. */
export interface RetailerChannel {
  channelId: string;
  marketplaceId: string | null;
  port: RetailerStatePort;
}

/** The simulated retailer of one sandbox: stateless apart from the seller-account cache and the in-memory rate buckets. */
export interface Retailer {
  /** Answers one seller-API call; it writes to the port only when the operation changed something. */
  handle(channel: RetailerChannel, request: RetailerRequest): RetailerResponse;
  /** The channel's generated seller account (read-only). */
  account(channelId: string): SellerAccount;
  /** Drops the channel's cached seller account and rate buckets (channel deleted). */
  forgetChannel(channelId: string): void;
  /** Drops every rate bucket (sandbox reset). */
  reset(): void;
}

const SECRET_FREE_TOKEN_DETAILS: Record<Exclude<RetailerFailure, 'throttled' | 'timeout'>, string> = {
  invalid_token: 'The access token you provided is revoked, malformed or invalid.',
  expired_token: 'The access token you provided has expired.',
};

/** Builds the retailer; no network is involved anywhere: calls are plain function calls. */
export function createRetailer(options: RetailerOptions): Retailer {
  const accounts = new SellerAccountCache(options.seed, options.refDate ?? new Date('2024-09-01T00:00:00.000Z'));
  const limiter = new RateLimiter();
  const limitOf = options.rateLimit ?? ((op: RetailerOperation) => op.limit);
  const newId = options.newId ?? randomUUID;
  const endpointProblem = endpointCheck(options.endpoint);

  const respond = (result: OperationResult, headers: Record<string, string>, failure?: RetailerFailure): RetailerResponse => ({
    status: result.status,
    body: result.body,
    headers: { 'x-amzn-requestid': newId(), ...headers },
    ...(failure ? { failure } : {}),
  });

  function handle(channel: RetailerChannel, request: RetailerRequest): RetailerResponse {
    const problem = endpointProblem(request.path);
    if (problem) return respond(invalidInput(problem), {});
    const access = checkAccessToken(channel.port, channel.channelId, request.accessToken, request.now);
    if (access !== 'ok') {
      return respond(retailerError(403, 'Unauthorized', 'Access to requested resource is denied.', SECRET_FREE_TOKEN_DETAILS[access]), {}, access);
    }
    if (request.fault) {
      const fault = injectedFault(request.fault);
      return respond(fault.result, fault.headers, fault.failure);
    }
    const match = matchOperation(RETAILER_OPERATIONS, request.method, request.path);
    if (!('operation' in match)) {
      return match.pathKnown
        ? respond(retailerError(405, 'MethodNotAllowed', `${request.method} is not supported on ${request.path}.`), {})
        : respond(retailerError(404, 'NotFound', `No seller API operation matches ${request.method} ${request.path}.`), {});
    }
    const { operation, params } = match;
    const limit = limitOf(operation);
    const rateHeaders: Record<string, string> = limit ? { 'x-amzn-ratelimit-limit': String(limit.rate) } : {};
    if (limit) {
      const taken = limiter.take(channel.channelId, operation.name, limit, request.now);
      if (!taken.ok) {
        const result = retailerError(429, 'QuotaExceeded', 'You exceeded your quota for the requested resource.');
        return respond(result, { ...rateHeaders, 'retry-after': String(taken.retryAfterSeconds) }, 'throttled');
      }
    }
    const outcome = operation.run({
      channelId: channel.channelId,
      marketplaceId: channel.marketplaceId ?? DEFAULT_MARKETPLACE_ID,
      account: accounts.get(channel.channelId),
      state: channel.port.getState(channel.channelId),
      params,
      query: request.query,
      body: request.body,
      now: request.now,
      newId,
    });
    // An operation writes the calling channel's state and no other, whatever its outcome says.
    if (outcome.state) channel.port.putState({ ...outcome.state, id: channel.channelId, channel_id: channel.channelId });
    return respond({ status: outcome.status, body: outcome.body }, rateHeaders);
  }

  return {
    handle,
    account: (channelId) => accounts.get(channelId),
    forgetChannel(channelId) {
      accounts.forget(channelId);
      limiter.forgetChannel(channelId);
    },
    reset: () => limiter.clear(),
  };
}
