import { describe, expect, it } from 'vitest';
import {
  authorizationUrl,
  completeAuthorization,
  decideAuthorization,
  pendingAuthorization,
  startAuthorization,
} from '../../src/retailer/auth/authorization.js';
import { adoptGrant, checkAccessToken, refreshAccessToken, revokeGrant } from '../../src/retailer/auth/grants.js';
import { createMemoryPort } from './memory-port.js';
import { CHANNEL, countingTokens, T0 } from './fixture.js';

const at = (ms: number) => new Date(T0.getTime() + ms);
const USER = '11111111-1111-4111-8111-111111111111';

function approved() {
  const port = createMemoryPort();
  const tokens = countingTokens();
  const auth = startAuthorization(port, { channelId: CHANNEL, userId: USER, redirectUri: 'http://127.0.0.1:4010/_retailer/callback', now: T0, tokens });
  const decided = decideAuthorization(port, { state: auth.id, approve: true, now: at(1000), tokens });
  if (!decided.ok) throw new Error(decided.problem);
  const code = new URL(decided.value.redirect).searchParams.get('code')!;
  return { port, tokens, state: auth.id, code, redirect: decided.value.redirect };
}

describe('retailer authorization server', () => {
  it('When the seller approves, then the redirect carries a code and the state, and the code buys tokens the retailer accepts', () => {
    const { port, tokens, state, code, redirect } = approved();
    expect(redirect).toMatch(/^http:\/\/127\.0\.0\.1:4010\/_retailer\/callback\?code=AN.+&state=st_/);
    const done = completeAuthorization(port, { state, code, now: at(2000), tokens });
    expect(done.ok).toBe(true);
    if (!done.ok) return;
    expect(done.value.channelId).toBe(CHANNEL);
    expect(done.value.tokens.access_token_expires_at).toBe(at(2000 + 3_600_000).toISOString());
    expect(checkAccessToken(port, CHANNEL, done.value.tokens.access_token, at(3000))).toBe('ok');
  });

  it('When a code is exchanged twice, then the second exchange fails with code_used', () => {
    const { port, tokens, state, code } = approved();
    expect(completeAuthorization(port, { state, code, now: at(2000), tokens }).ok).toBe(true);
    expect(completeAuthorization(port, { state, code, now: at(3000), tokens })).toEqual({ ok: false, problem: 'code_used' });
  });

  it('When a code is older than five minutes, then it is refused as expired', () => {
    const { port, tokens, state, code } = approved();
    expect(completeAuthorization(port, { state, code, now: at(1000 + 300_000), tokens })).toEqual({ ok: false, problem: 'code_expired' });
  });

  it('When the code or the state is foreign, then nothing is granted', () => {
    const { port, tokens, state } = approved();
    expect(completeAuthorization(port, { state, code: 'ANforged', now: at(2000), tokens })).toEqual({ ok: false, problem: 'invalid_code' });
    expect(completeAuthorization(port, { state: 'st_unknown', code: 'x', now: at(2000), tokens })).toEqual({ ok: false, problem: 'unknown_state' });
    expect(port.getGrant(CHANNEL)).toBeUndefined();
  });

  it('When the seller denies, then the redirect carries error=access_denied and the callback grants nothing', () => {
    const port = createMemoryPort();
    const tokens = countingTokens();
    const auth = startAuthorization(port, { channelId: CHANNEL, userId: USER, redirectUri: 'http://127.0.0.1:4010/_retailer/callback', now: T0, tokens });
    const denied = decideAuthorization(port, { state: auth.id, approve: false, now: T0, tokens });
    expect(denied.ok && new URL(denied.value.redirect).searchParams.get('error')).toBe('access_denied');
    expect(completeAuthorization(port, { state: auth.id, code: undefined, error: 'access_denied', now: T0, tokens })).toEqual({
      ok: false,
      problem: 'access_denied',
    });
    expect(decideAuthorization(port, { state: auth.id, approve: true, now: T0, tokens })).toEqual({ ok: false, problem: 'already_decided' });
  });

  it('When the state is older than ten minutes, then the consent page refuses it', () => {
    const port = createMemoryPort();
    const auth = startAuthorization(port, { channelId: CHANNEL, userId: USER, redirectUri: 'http://x.test/cb', now: T0, tokens: countingTokens() });
    expect(pendingAuthorization(port, auth.id, at(599_000)).ok).toBe(true);
    expect(pendingAuthorization(port, auth.id, at(600_000))).toEqual({ ok: false, problem: 'state_expired' });
    expect(authorizationUrl('http://127.0.0.1:4010', auth.id)).toBe(
      `http://127.0.0.1:4010/_retailer/authorize?application_id=sandbox-app&state=${encodeURIComponent(auth.id)}&version=beta`,
    );
  });

  it('When the refresh token is valid, then a new access token replaces the old one; an invalid or revoked one fails', () => {
    const port = createMemoryPort();
    const tokens = countingTokens();
    adoptGrant(port, CHANNEL, { access_token: 'Atza|old', refresh_token: 'Atzr|r', access_token_expires_at: T0.toISOString() }, T0);
    const renewed = refreshAccessToken(port, CHANNEL, 'Atzr|r', at(1000), tokens);
    expect(renewed?.access_token).toBe('Atza|t1');
    expect(checkAccessToken(port, CHANNEL, 'Atza|t1', at(2000))).toBe('ok');
    expect(checkAccessToken(port, CHANNEL, 'Atza|old', at(2000))).toBe('invalid_token');
    expect(refreshAccessToken(port, CHANNEL, 'Atzr|wrong', at(3000), tokens)).toBeNull();
    revokeGrant(port, CHANNEL);
    expect(refreshAccessToken(port, CHANNEL, 'Atzr|r', at(4000), tokens)).toBeNull();
  });
});
