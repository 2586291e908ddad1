import { describe, expect, it } from 'vitest';
import { revokeGrant } from '../../src/retailer/auth/grants.js';
import { relayCall, type ChannelConnection } from '../../src/retailer/relay.js';
import { ACCESS, CHANNEL, connectedRetailer, countingTokens, REFRESH, T0, US } from './fixture.js';

const connection: ChannelConnection = { access_token: ACCESS, refresh_token: REFRESH, access_token_expires_at: '2024-09-02T11:00:00.000Z', marketplace_id: US };

function relay(overrides: Partial<Parameters<typeof relayCall>[1]> = {}) {
  const setup = connectedRetailer();
  const base = {
    channelId: CHANNEL,
    port: setup.port,
    connection,
    method: 'GET' as const,
    endpoint: 'sellers/v1/marketplaceParticipations',
    query: {},
    now: T0,
    tokens: countingTokens(),
  };
  return { ...setup, result: relayCall(setup.retailer, { ...base, ...overrides }), base };
}

describe('relay orchestration', () => {
  it('When the channel is connected, then the retailer body comes back as a JSON string with its status', () => {
    const { result } = relay();
    expect(result.outcome.kind).toBe('answered');
    if (result.outcome.kind !== 'answered') return;
    expect(result.outcome.retailerStatus).toBe(200);
    expect(JSON.parse(result.outcome.response).payload[0].marketplace.id).toBe(US);
    expect(result.renewed).toBeUndefined();
  });

  it('When the channel has no connection data, then the outcome is not_connected', () => {
    expect(relay({ connection: undefined }).result.outcome).toEqual({ kind: 'not_connected' });
  });

  it('When the access token has expired, then it is refreshed first and the renewed tokens are handed back to store', () => {
    const { result } = relay({ now: new Date('2024-09-02T12:00:00.000Z') });
    expect(result.outcome.kind).toBe('answered');
    expect(result.renewed).toMatchObject({ access_token: 'Atza|t1', refresh_token: REFRESH, access_token_expires_at: '2024-09-02T13:00:00.000Z' });
  });

  it('When the retailer no longer honours the tokens, then the outcome is authorization_required', () => {
    const setup = connectedRetailer();
    revokeGrant(setup.port, CHANNEL);
    const result = relayCall(setup.retailer, {
      channelId: CHANNEL,
      port: setup.port,
      connection,
      method: 'GET',
      endpoint: 'sellers/v1/marketplaceParticipations',
      query: {},
      now: T0,
      tokens: countingTokens(),
    });
    expect(result.outcome).toEqual({ kind: 'authorization_required' });
  });

  it('When the retailer answers an error (unknown endpoint), then it is relayed as an answer with the retailer status', () => {
    const { result } = relay({ endpoint: 'nope/v1/x' });
    expect(result.outcome).toMatchObject({ kind: 'answered', retailerStatus: 404 });
  });

  it('When the retailer throttles, then the outcome carries retry-after seconds', () => {
    const setup = connectedRetailer();
    const call = () =>
      relayCall(setup.retailer, {
        channelId: CHANNEL,
        port: setup.port,
        connection,
        method: 'GET',
        endpoint: 'catalog/2022-04-01/items',
        query: { marketplaceIds: US, keywords: 'a' },
        now: T0,
        tokens: countingTokens(),
      });
    call();
    call();
    expect(call().outcome).toEqual({ kind: 'throttled', retryAfterSeconds: 1 });
  });
});
