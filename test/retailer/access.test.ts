import { describe, expect, it } from 'vitest';
import { bodyOf, connectedRetailer } from './fixture.js';

describe('retailer access tokens', () => {
  it('When the token is not the channel current access token, then the retailer refuses with 403 Unauthorized', () => {
    const { call } = connectedRetailer();
    const res = call('GET', 'sellers/v1/marketplaceParticipations', {}, { accessToken: 'Atza|someone-else' });
    expect(res.status).toBe(403);
    expect(res.failure).toBe('invalid_token');
    expect(bodyOf(res).errors[0].code).toBe('Unauthorized');
    expect(JSON.stringify(res)).not.toContain('Atza|test-access');
  });

  it('When the access token has expired, then the retailer says so', () => {
    const { call } = connectedRetailer();
    const res = call('GET', 'sellers/v1/marketplaceParticipations', {}, { now: new Date('2024-09-02T11:00:00.000Z') });
    expect(res.failure).toBe('expired_token');
  });

  it('When the endpoint is unknown, then the retailer answers 404; a known path with another method answers 405', () => {
    const { call } = connectedRetailer();
    expect(call('GET', 'nope/v1/things').status).toBe(404);
    expect(call('POST', 'orders/v0/orders').status).toBe(405);
  });

  it('When an endpoint tries to escape (.., //, scheme), then the retailer refuses it as input and never routes it', () => {
    const { call } = connectedRetailer();
    for (const path of ['../orders/v0/orders', 'orders/../../etc', '//evil.example/x', 'http://evil.example/', 'orders\\v0']) {
      expect(call('GET', path).status).toBe(400);
    }
  });
});
