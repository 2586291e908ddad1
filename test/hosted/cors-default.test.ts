// Issue 31, finding 6: hosted mode answered CORS for any origin, so any website could make its visitors' browsers
// create workspaces and read their tokens, from the visitors' own addresses. Hosted, the default is the PUBLIC_URL
// origin (plus what CORS_ORIGINS lists); locally it stays '*'.
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { configFromOptions } from '../../src/config.js';
import { testApp } from '../helpers/app.js';
import { ADMIN, hostedApp, PUBLIC_URL } from './support.js';

const EVIL = 'https://evil.example';
const START = { port: 0, host: '127.0.0.1', store: 'memory', reset: false, latencyMs: 0, logLevel: 'silent', strict: false } as const;

/** The CORS grant of each way a page reaches a workspace: the creation, a replayed read, a preflight. */
async function grants(app: Parameters<typeof request>[0], origin: string) {
  const created = await request(app).post('/_sandbox/workspaces').set('Origin', origin).expect(201);
  const health = await request(app).get('/_sandbox/health').set('Origin', origin).expect(200);
  const preflight = await request(app)
    .options('/_sandbox/workspaces')
    .set('Origin', origin)
    .set('Access-Control-Request-Method', 'POST')
    .set('Access-Control-Request-Headers', 'Content-Type');
  return [created, health, preflight].map((res) => res.headers['access-control-allow-origin']);
}

describe('hosted mode: CORS defaults to the public origin', () => {
  it('When another website asks, then no answer grants it (creation, a read, a preflight); the PUBLIC_URL origin is granted', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100 });
    expect(await grants(t.app, EVIL)).toEqual([undefined, undefined, undefined]);
    expect(await grants(t.app, PUBLIC_URL)).toEqual([PUBLIC_URL, PUBLIC_URL, PUBLIC_URL]);
    expect(t.errors).toEqual([]);
  });

  it('When CORS_ORIGINS lists a docs site, then hosted mode grants it and the PUBLIC_URL origin, and still no other', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100, corsOrigins: ['https://docs.example.com'] });
    expect(await grants(t.app, 'https://docs.example.com')).toEqual(Array(3).fill('https://docs.example.com'));
    expect(await grants(t.app, PUBLIC_URL)).toEqual(Array(3).fill(PUBLIC_URL));
    expect(await grants(t.app, EVIL)).toEqual([undefined, undefined, undefined]);
  });

  it('When the sandbox starts with HOSTED=1 and no CORS_ORIGINS, then its configuration grants the PUBLIC_URL origin only', async () => {
    const { config, errors } = configFromOptions(START, { HOSTED: '1', SANDBOX_ADMIN_TOKEN: ADMIN, PUBLIC_URL });
    expect(errors).toEqual([]);
    const t = await testApp({ ...config, logLevel: 'silent' });
    expect(await grants(t.app, EVIL)).toEqual([undefined, undefined, undefined]);
    expect((await grants(t.app, PUBLIC_URL))[0]).toBe(PUBLIC_URL);
  });

  it('When the sandbox runs locally without CORS_ORIGINS, then any origin is granted (*), as before', async () => {
    const t = await testApp();
    expect(await grants(t.app, EVIL)).toEqual(['*', '*', '*']);
  });
});
