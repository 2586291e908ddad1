import { performance } from 'node:perf_hooks';
import type { Handlers } from '../handler-map.js';
import type { Ctx } from '../context.js';
import { paginate } from '../../http/pagination.js';
import { ok, reply } from '../../http/reply.js';
import {
  checkAccessToken,
  ensureAccess,
  randomTokens,
  relayCall,
  searchChannelCatalogItems,
  type RelayOutcome,
  type RetailerMethod,
} from '../../retailer/index.js';
import { unprocessable } from '../../http/errors.js';
import { nestsDeeperThan } from '../../http/json-depth.js';
import { retailerFaultOf } from '../../knobs/prefer-header.js';
import { redactUrl } from '../../observe/redact.js';
import { logCall } from './call-log.js';
import { saveRenewedTokens } from './connection.js';
import { retailerPort } from './retailer-instance.js';
import type { ChannelRecord } from './records.js';
import { relayTarget } from './relay-target.js';

type ConnectionProblem = 'not_connected' | 'authorization_required';

const CONNECTION_MESSAGES: Record<ConnectionProblem, string> = {
  not_connected: 'The channel has no connection data. Store connection data or authorize the channel via get-auth-url first.',
  authorization_required:
    "The retailer refused the channel's refresh token: the channel needs authorization again. Store new connection data or authorize via get-auth-url.",
};

/** The documented 409 for a channel that cannot call the retailer; returned, not thrown, so the call log row stays. */
export const connectionProblem = (reason: ConnectionProblem) => reply(409, { message: CONNECTION_MESSAGES[reason], reason });

/** What the relay answers the client for each outcome (see the contract's relay description). */
function relayReply(outcome: RelayOutcome) {
  switch (outcome.kind) {
    case 'answered':
      return reply(200, { response: outcome.response }, { 'X-Retailer-Status': String(outcome.retailerStatus) });
    case 'throttled': {
      const seconds = Math.max(1, Math.ceil(outcome.retryAfterSeconds));
      return reply(
        429,
        { message: `The retailer throttled this call (QuotaExceeded). Retry after ${seconds} second${seconds === 1 ? '' : 's'}.` },
        { 'Retry-After': String(seconds) },
      );
    }
    case 'timeout':
      return reply(504, {
        message: 'The retailer did not answer in time (simulated timeout). Whether it acted on the call is unknown; retry if the call is safe to repeat.',
      });
    default:
      return connectionProblem(outcome.kind);
  }
}

/**
 * How deep a relayed body may nest (the contract's RetailerRelayBody). The retailer keeps a listing's attributes as
 * sent, so a deeper body would be stored and then answered, exported and loaded as no other record is: a bundle
 * refuses values deeper than 72 levels, and serializing one thousands of levels deep overflows the stack.
 */
export const RELAY_BODY_MAX_DEPTH = 32;

function relayedBody(method: RetailerMethod, body: unknown): unknown {
  if (method === 'GET' || method === 'DELETE') return undefined;
  if (nestsDeeperThan(body, RELAY_BODY_MAX_DEPTH)) {
    unprocessable({ body: [`The body must not nest deeper than ${RELAY_BODY_MAX_DEPTH} levels of objects and arrays.`] });
  }
  return body;
}

/** What a relay operation reads from its input (the Prefer header included, for retailer faults). */
export interface RelayInput {
  params: { channel: string; endpoint: string };
  bound: { channel: ChannelRecord };
  body?: unknown;
  headers: Record<string, string | string[] | undefined>;
}

/** The status the retailer answered, as the call log keeps it: null when it never answered (or not in time). */
function retailerStatusOf(outcome: RelayOutcome): number | null {
  if (outcome.kind === 'answered') return outcome.retailerStatus;
  return outcome.kind === 'throttled' ? 429 : null;
}

/**
 * One relay operation: checks the channel, relays to the in-process retailer (refreshing an expired token first),
 * stores a renewed token, logs the call and answers. Every outcome is returned, never thrown, so the renewed
 * token and the call log row commit with the request.
 */
function relay(method: RetailerMethod) {
  return (input: RelayInput, ctx: Ctx) => {
    const { params, bound } = input;
    const { channel } = bound;
    const body = relayedBody(method, input.body);
    const fault = retailerFaultOf(ctx);
    const started = performance.now();
    const now = ctx.clock.now();
    const target = relayTarget(params.endpoint, ctx.url);
    const result = relayCall(ctx.retailer, {
      channelId: channel.id,
      port: retailerPort(ctx.store),
      connection: ctx.store.channel_connections.get(channel.id),
      method,
      endpoint: target.path,
      query: target.query,
      body,
      now,
      tokens: randomTokens,
      fault,
    });
    if (result.renewed) saveRenewedTokens(ctx.store, channel.id, result.renewed, now.toISOString());
    const relayed = relayReply(result.outcome);
    // A channel that cannot call the retailer (409) never reached it, so the fault was not applied.
    const honoured = fault !== undefined && result.outcome.kind !== 'not_connected' && result.outcome.kind !== 'authorization_required';
    const answer = honoured ? { ...relayed, headers: { ...relayed.headers, 'Preference-Applied': `retailer-fault=${fault}` } } : relayed;
    logCall(ctx.store, {
      id: ctx.newId(),
      channel_id: channel.id,
      method,
      endpoint: target.path,
      // A client may put a credential in its own query string; the log never keeps one.
      query: redactUrl(`?${target.rawQuery}`).slice(1),
      status: answer.status,
      retailer_status: retailerStatusOf(result.outcome),
      refreshed_token: result.renewed !== undefined,
      fault: fault ?? null,
      duration_ms: Math.max(0, Math.round(performance.now() - started)),
      called_at: now.toISOString(),
    });
    return answer;
  };
}

/** The five relay operations and the catalog search, which reach the retailer on the channel's behalf. */
export const relayHandlers = {
  retrieveRetailerResource: relay('GET'),
  sendRetailerRequest: relay('POST'),
  replaceRetailerResource: relay('PUT'),
  updateRetailerResource: relay('PATCH'),
  deleteRetailerResource: relay('DELETE'),

  searchChannelCatalog: ({ bound: { channel }, query }, ctx) => {
    const now = ctx.clock.now();
    const port = retailerPort(ctx.store);
    const connection = ctx.store.channel_connections.get(channel.id);
    const call = { channelId: channel.id, port, connection, now, tokens: randomTokens };
    let access = ensureAccess(call);
    // Like the relay: a token the retailer no longer honours is refreshed once before giving up.
    if ('token' in access && checkAccessToken(port, channel.id, access.token, now) !== 'ok') access = ensureAccess(call, true);
    if ('kind' in access) return connectionProblem(access.kind);
    if (access.renewed) saveRenewedTokens(ctx.store, channel.id, access.renewed, now.toISOString());
    const catalog = ctx.retailer.account(channel.id).catalog;
    const items = searchChannelCatalogItems(catalog, connection?.marketplace_id ?? null, {
      keywords: query.keywords,
      identifier: query.identifier,
      identifier_type: query.identifier_type,
    });
    return ok(paginate(items, query, ctx.url));
  },
} satisfies Partial<Handlers>;
