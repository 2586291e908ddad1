import type { RetailerAuthorizationRecord } from '../record-types.js';
import type { RetailerStatePort } from '../state-port.js';
import { issueGrant, type IssuedTokens } from './grants.js';
import { LIFETIME_MS, type TokenSource } from './tokens.js';

/** Why a step of the authorization flow is refused; each maps to one message on the error page. */
export type AuthorizationProblem = 'unknown_state' | 'state_expired' | 'already_decided' | 'access_denied' | 'invalid_code' | 'code_expired' | 'code_used';

/** Either the value or the reason it was refused. */
export type AuthorizationResult<T> = { ok: true; value: T } | { ok: false; problem: AuthorizationProblem };

const fail = <T>(problem: AuthorizationProblem): AuthorizationResult<T> => ({ ok: false, problem });
const expired = (at: string | null, now: Date) => at === null || now.getTime() >= Date.parse(at);

/** get-auth-url: a new single-use state bound to the channel and the caller, valid ten minutes. */
export function startAuthorization(
  port: RetailerStatePort,
  input: { channelId: string; userId: string; redirectUri: string; now: Date; tokens: TokenSource },
): RetailerAuthorizationRecord {
  const record: RetailerAuthorizationRecord = {
    id: input.tokens('state'),
    channel_id: input.channelId,
    user_id: input.userId,
    redirect_uri: input.redirectUri,
    created_at: input.now.toISOString(),
    expires_at: new Date(input.now.getTime() + LIFETIME_MS.state).toISOString(),
    decision: null,
    decided_at: null,
    code: null,
    code_expires_at: null,
    exchanged_at: null,
  };
  port.putAuthorization(record);
  return record;
}

/** The consent page's lookup: an authorization still waiting for the seller's decision. */
export function pendingAuthorization(port: RetailerStatePort, state: string, now: Date): AuthorizationResult<RetailerAuthorizationRecord> {
  const record = port.getAuthorization(state);
  if (!record) return fail('unknown_state');
  if (record.decision !== null) return fail('already_decided');
  if (expired(record.expires_at, now)) return fail('state_expired');
  return { ok: true, value: record };
}

/**
 * The seller's choice on the consent page. Approve issues a five-minute single-use code; both answer the
 * redirect (OAuth style: `code` and `state`, or `error=access_denied` and `state`) for the browser to follow.
 */
export function decideAuthorization(
  port: RetailerStatePort,
  input: { state: string; approve: boolean; now: Date; tokens: TokenSource },
): AuthorizationResult<{ redirect: string; record: RetailerAuthorizationRecord }> {
  const pending = pendingAuthorization(port, input.state, input.now);
  if (!pending.ok) return pending;
  const code = input.approve ? input.tokens('code') : null;
  const record: RetailerAuthorizationRecord = {
    ...pending.value,
    decision: input.approve ? 'approved' : 'denied',
    decided_at: input.now.toISOString(),
    code,
    code_expires_at: code === null ? null : new Date(input.now.getTime() + LIFETIME_MS.code).toISOString(),
  };
  port.putAuthorization(record);
  const url = new URL(record.redirect_uri);
  if (code === null) url.searchParams.set('error', 'access_denied');
  else url.searchParams.set('code', code);
  url.searchParams.set('state', record.id);
  return { ok: true, value: { redirect: url.toString(), record } };
}

/**
 * The callback: checks the state, exchanges the code once for tokens and records the retailer's grant. The
 * caller stores the answered tokens as the channel's connection data (and nothing on failure).
 */
export function completeAuthorization(
  port: RetailerStatePort,
  input: { state: string; code: string | undefined; error?: string; now: Date; tokens: TokenSource },
): AuthorizationResult<{ channelId: string; userId: string; tokens: IssuedTokens }> {
  const record = port.getAuthorization(input.state);
  if (!record) return fail('unknown_state');
  if (input.error !== undefined || record.decision === 'denied') return fail('access_denied');
  if (record.decision !== 'approved' || !input.code || record.code !== input.code) return fail('invalid_code');
  if (record.exchanged_at !== null) return fail('code_used');
  if (expired(record.code_expires_at, input.now)) return fail('code_expired');
  port.putAuthorization({ ...record, exchanged_at: input.now.toISOString() });
  const tokens = issueGrant(port, record.channel_id, input.now, input.tokens);
  return { ok: true, value: { channelId: record.channel_id, userId: record.user_id, tokens } };
}

/** The consent page URL for a state; `baseUrl` is the sandbox's own origin, so the flow never leaves the process. */
export function authorizationUrl(baseUrl: string, state: string): string {
  const url = new URL('/_retailer/authorize', baseUrl);
  url.searchParams.set('application_id', 'sandbox-app');
  url.searchParams.set('state', state);
  url.searchParams.set('version', 'beta');
  return url.toString();
}

/** The human sentence for each problem, shown on the error page. */
export const AUTHORIZATION_MESSAGES: Record<AuthorizationProblem, string> = {
  unknown_state: 'This authorization link is not known. Request a new one with get-auth-url.',
  state_expired: 'This authorization link has expired. Request a new one with get-auth-url.',
  already_decided: 'This authorization link has already been used. Request a new one with get-auth-url.',
  access_denied: 'The authorization was denied. Nothing was stored on the channel.',
  invalid_code: 'The authorization code does not belong to this authorization. Nothing was stored on the channel.',
  code_expired: 'The authorization code has expired. Request a new link with get-auth-url.',
  code_used: 'The authorization code has already been used. Request a new link with get-auth-url.',
};
