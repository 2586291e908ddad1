import type { RetailerGrantRecord } from '../record-types.js';
import type { RetailerStatePort } from '../state-port.js';
import { LIFETIME_MS, type TokenSource } from './tokens.js';

/** Tokens a channel stores as its connection data. */
export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  access_token_expires_at: string;
}

/** Why the retailer refuses an access token. */
export type AccessCheck = 'ok' | 'invalid_token' | 'expired_token';

/** Mints and records a fresh grant for the channel, replacing any earlier one. */
export function issueGrant(port: RetailerStatePort, channelId: string, now: Date, tokens: TokenSource): IssuedTokens {
  const grant: RetailerGrantRecord = {
    id: channelId,
    channel_id: channelId,
    access_token: tokens('access'),
    refresh_token: tokens('refresh'),
    access_token_expires_at: new Date(now.getTime() + LIFETIME_MS.access).toISOString(),
    issued_at: now.toISOString(),
  };
  port.putGrant(grant);
  return { access_token: grant.access_token, refresh_token: grant.refresh_token, access_token_expires_at: grant.access_token_expires_at };
}

/**
 * Connection data stored by hand (POST connection-data) becomes the retailer's grant: the sandbox has no real
 * retailer account to check it against, and relayed calls must work right after storing it.
 */
export function adoptGrant(port: RetailerStatePort, channelId: string, tokens: IssuedTokens, now: Date): void {
  port.putGrant({ id: channelId, channel_id: channelId, ...tokens, issued_at: now.toISOString() });
}

/** The seller revoked the application: the retailer honours neither token any more. */
export function revokeGrant(port: RetailerStatePort, channelId: string): void {
  port.removeGrant(channelId);
}

/** Whether the presented access token is the channel's current one and still valid. */
export function checkAccessToken(port: RetailerStatePort, channelId: string, token: string, now: Date): AccessCheck {
  const grant = port.getGrant(channelId);
  if (!grant || token.length === 0 || grant.access_token !== token) return 'invalid_token';
  return now.getTime() < Date.parse(grant.access_token_expires_at) ? 'ok' : 'expired_token';
}

/** A new access token for a valid refresh token (the refresh token stays, as with the modelled retailer), or null. */
export function refreshAccessToken(port: RetailerStatePort, channelId: string, refreshToken: string, now: Date, tokens: TokenSource): IssuedTokens | null {
  const grant = port.getGrant(channelId);
  if (!grant || refreshToken.length === 0 || grant.refresh_token !== refreshToken) return null;
  const renewed: RetailerGrantRecord = {
    ...grant,
    access_token: tokens('access'),
    access_token_expires_at: new Date(now.getTime() + LIFETIME_MS.access).toISOString(),
    issued_at: now.toISOString(),
  };
  port.putGrant(renewed);
  return { access_token: renewed.access_token, refresh_token: renewed.refresh_token, access_token_expires_at: renewed.access_token_expires_at };
}
