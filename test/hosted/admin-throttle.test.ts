// Hosted mode counts wrong control-plane tokens per client address: past ADMIN_ATTEMPTS_PER_HOUR, that address's
// admin attempts answer 429 (with Retry-After) before the token is even compared; workspace tokens and other
// addresses are not held up.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { ADMIN, bearer, hostedApp, newWorkspace } from './support.js';

const LIMIT = 3;
// Behind a trusted proxy the client address is X-Forwarded-For's: two visitors from one test.
const from = (address: string) => ({ 'X-Forwarded-For': address });
const GUESSER = from('203.0.113.7');
const OTHER = from('198.51.100.20');

async function throttled() {
  return hostedApp({ adminAttemptsPerHour: LIMIT, trustProxy: 'loopback' });
}

describe('hosted mode: failed admin attempts are throttled per address', () => {
  it('When one address sent ADMIN_ATTEMPTS_PER_HOUR wrong tokens, then its next attempt answers 429 with Retry-After, even with the admin token', async () => {
    const t = await throttled();
    for (let i = 0; i < LIMIT; i++) {
      const res = await request(t.app)
        .get('/_sandbox/requests')
        .set(GUESSER)
        .set(bearer(`guess-${i}`));
      expect(res.status).toBe(401);
    }
    const refused = await request(t.app).get('/_sandbox/requests').set(GUESSER).set(bearer(ADMIN));
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.body.message).toMatch(/wrong control-plane tokens/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Any control-plane operation, any spelling of a wrong token: the same 429.
    await request(t.app).post('/_sandbox/reset').set(GUESSER).set(bearer('demo-owner-token')).expect(429);
    expect(t.errors).toEqual([]);
  });

  it('When an address is throttled, then another address may still use the admin token, and the throttled one its workspace token', async () => {
    const t = await throttled();
    const ws = await newWorkspace(t.app);
    for (let i = 0; i < LIMIT; i++)
      await request(t.app)
        .get('/_sandbox/clock')
        .set(GUESSER)
        .set(bearer(`guess-${i}`))
        .expect(401);
    await request(t.app).get('/_sandbox/clock').set(GUESSER).set(bearer(ADMIN)).expect(429);
    await request(t.app).get('/_sandbox/clock').set(OTHER).set(bearer(ADMIN)).expect(200);
    const own = await request(t.app).get('/_sandbox/clock').set(GUESSER).set(bearer(ws.tokens.owner)).expect(200);
    expect(own.body.data.workspace).toBe(ws.id);
  });

  it('When calls carry no token, or the right admin token, then nothing is counted against the address', async () => {
    const t = await throttled();
    for (let i = 0; i < LIMIT * 2; i++) await request(t.app).get('/_sandbox/requests').set(GUESSER).expect(401);
    for (let i = 0; i < LIMIT * 2; i++) await request(t.app).get('/_sandbox/requests').set(GUESSER).set(bearer(ADMIN)).expect(200);
    await request(t.app).get('/_sandbox/requests').set(GUESSER).set(bearer('guess')).expect(401);
  });
});
