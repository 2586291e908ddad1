// Per-address limits count an IPv6 client by its /64: one subscriber, machine or cloud instance is given a /64 (or
// more) and may send from any of its 2^64 addresses, so counted by whole address a single visitor had no limit at
// all. An IPv4-mapped IPv6 address (::ffff:a.b.c.d, how a dual-stack socket reports an IPv4 client) is that IPv4
// address.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { clientKey } from '../../src/access/client-address.js';
import { ADMIN, bearer, hostedApp } from './support.js';

const from = (address: string) => ({ 'X-Forwarded-For': address });

describe('per-address limits and IPv6 clients', () => {
  it('When one /64 creates workspaces from a new address each time, then the creation limit holds for the /64; another /64 has its own', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 2, trustProxy: true });
    await request(t.app).post('/_sandbox/workspaces').set(from('2001:db8:1:2::1')).expect(201);
    await request(t.app).post('/_sandbox/workspaces').set(from('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).expect(201);
    const refused = await request(t.app).post('/_sandbox/workspaces').set(from('2001:0db8:0001:0002:ffff::9'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await request(t.app).post('/_sandbox/workspaces').set(from('2001:db8:1:3::1')).expect(201);
  });

  it('When one /64 guesses admin tokens from a new address each time, then its admin attempts are throttled as one address', async () => {
    const t = await hostedApp({ adminAttemptsPerHour: 2, trustProxy: true });
    for (const host of ['1', '2'])
      await request(t.app)
        .get('/_sandbox/requests')
        .set(from(`2001:db8::${host}`))
        .set(bearer(`guess-${host}`))
        .expect(401);
    await request(t.app).get('/_sandbox/requests').set(from('2001:db8::3')).set(bearer(ADMIN)).expect(429);
    await request(t.app).get('/_sandbox/requests').set(from('2001:db8:0:1::3')).set(bearer(ADMIN)).expect(200);
  });

  it('When an address is read, then IPv4 stays itself, IPv4-mapped IPv6 is its IPv4, and IPv6 is its /64 whatever its spelling', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('2001:db8::1')).toBe(clientKey('2001:0DB8:0:0:ffff:1:2:3'));
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
    expect(clientKey(undefined)).toBe('unknown');
  });
});
