import { refreshAccessToken, type IssuedTokens } from './auth/grants.js';
import type { TokenSource } from './auth/tokens.js';
import type { Retailer } from './retailer.js';
import type { RetailerStatePort } from './state-port.js';
import type { RetailerMethod, RetailerRequest } from './types.js';

/** The channel's stored connection data, as the channels area keeps it (secrets included; never presented). */
export interface ChannelConnection {
  access_token: string;
  refresh_token: string;
  access_token_expires_at: string;
  marketplace_id: string | null;
}

/** What the relay answers the client, decided without touching HTTP. */
export type RelayOutcome =
  | { kind: 'answered'; retailerStatus: number; response: string; headers: Record<string, string> }
  | { kind: 'not_connected' }
  | { kind: 'authorization_required' }
  | { kind: 'throttled'; retryAfterSeconds: number }
  | { kind: 'timeout' };

/** The outcome plus renewed tokens, which the handler stores as the channel's connection data (same transaction). */
export interface RelayResult {
  outcome: RelayOutcome;
  renewed?: IssuedTokens;
}

/** One relayed call as the handler hands it over. */
export interface RelayCall {
  channelId: string;
  port: RetailerStatePort;
  connection: ChannelConnection | undefined;
  method: RetailerMethod;
  endpoint: string;
  query: RetailerRequest['query'];
  body?: unknown;
  now: Date;
  tokens: TokenSource;
  /** A fault the retailer is asked to produce (see faults.ts). */
  fault?: RetailerRequest['fault'];
}

type Access = { token: string; renewed?: IssuedTokens } | { kind: 'not_connected' | 'authorization_required' };

/**
 * A usable access token for the channel: the stored one, or (when it has expired) a refreshed one.
 * Shared by the relay and the catalog search, which both call the retailer on the channel's behalf.
 */
export function ensureAccess(call: Pick<RelayCall, 'channelId' | 'port' | 'connection' | 'now' | 'tokens'>, force = false): Access {
  const c = call.connection;
  if (!c) return { kind: 'not_connected' };
  if (!force && call.now.getTime() < Date.parse(c.access_token_expires_at)) return { token: c.access_token };
  const renewed = refreshAccessToken(call.port, call.channelId, c.refresh_token, call.now, call.tokens);
  return renewed ? { token: renewed.access_token, renewed } : { kind: 'authorization_required' };
}

/**
 * Relays one call: refreshes an expired token first, and on a token the retailer refuses refreshes once and
 * retries (as an SDK would). Retailer answers, errors included, come back as `answered`; only throttling, a
 * timeout and missing or refused authorization become outcomes of their own.
 */
export function relayCall(retailer: Retailer, call: RelayCall): RelayResult {
  let access = ensureAccess(call);
  let renewed: IssuedTokens | undefined;
  for (let attempt = 0; ; attempt++) {
    if ('kind' in access) return { outcome: access, ...(renewed ? { renewed } : {}) };
    renewed = access.renewed ?? renewed;
    const answer = retailer.handle(
      { channelId: call.channelId, marketplaceId: call.connection?.marketplace_id ?? null, port: call.port },
      { method: call.method, path: call.endpoint, query: call.query, body: call.body, accessToken: access.token, now: call.now, fault: call.fault },
    );
    const done = (outcome: RelayOutcome): RelayResult => ({ outcome, ...(renewed ? { renewed } : {}) });
    if (answer.failure === 'throttled') return done({ kind: 'throttled', retryAfterSeconds: Number(answer.headers['retry-after'] ?? 1) });
    if (answer.failure === 'timeout') return done({ kind: 'timeout' });
    if ((answer.failure === 'invalid_token' || answer.failure === 'expired_token') && attempt === 0) {
      access = ensureAccess(call, true);
      continue;
    }
    if (answer.failure === 'invalid_token' || answer.failure === 'expired_token') return done({ kind: 'authorization_required' });
    const response = answer.body === undefined ? '' : JSON.stringify(answer.body);
    return done({ kind: 'answered', retailerStatus: answer.status, response, headers: answer.headers });
  }
}
