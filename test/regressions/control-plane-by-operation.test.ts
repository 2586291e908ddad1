// Issue 22's attacks on hosted mode: checks that depended on the spelling of the path, bodies read before the token,
// forged `ws_<id>.` prefixes filed in (and keeping alive) the victim's workspace.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_GONE_MESSAGE } from '../../src/http/errors.js';
import { testApp } from '../helpers/app.js';
import { rawRequest } from '../hosted/raw-request.js';
import { ADMIN, bearer, PUBLIC_URL, UNTHROTTLED } from '../hosted/support.js';

const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const HOUR = 60 * 60 * 1000;

async function hosted(overrides: Parameters<typeof testApp>[0] = {}) {
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const t = await testApp(
    { hosted: true, adminToken: ADMIN, publicUrl: PUBLIC_URL, adminAttemptsPerHour: UNTHROTTLED, workspaceCreatePerMinute: 100, ...overrides },
    { now: () => clock.ms },
  );
  const create = async () => {
    const res = await rawRequest(t.app, 'POST', '/_sandbox/workspaces');
    expect(res.status).toBe(201);
    return (res.body as { data: { id: string; tokens: Record<'owner' | 'member', string> } }).data;
  };
  const journalOf = async (id: string) =>
    (await rawRequest(t.app, 'GET', `/_sandbox/requests?workspace=${id}&limit=1000`, bearer(ADMIN))).body as {
      data: { path: string; status: number; request: { body: unknown } }[];
    };
  return { t, clock, create, journalOf };
}

describe('regression: the control plane decides by operation, not by the spelling of the path', () => {
  it('When GET /_SANDBOX/requests is sent without a token, then 404 and no journal is answered', async () => {
    const { t, create } = await hosted();
    const victim = await create();
    await rawRequest(
      t.app,
      'PUT',
      `/2024-09/merchants/${MERCHANT}`,
      { ...bearer(victim.tokens.owner), 'Content-Type': 'application/json' },
      '{"name":"Secret plans"}',
    );
    for (const path of ['/_SANDBOX/requests', '/_Sandbox/requests', '//_sandbox/requests', '/_sandbox/%72equests', '/_sandbox//requests']) {
      const res = await rawRequest(t.app, 'GET', path);
      expect(res.status, path).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain('Secret plans');
    }
  });

  it("When DELETE /_SANDBOX/workspaces/<another's id> is sent without a token, then 404 and the victim's token still works", async () => {
    const { t, create } = await hosted();
    const victim = await create();
    for (const path of [`/_SANDBOX/workspaces/${victim.id}`, `/_sandbox/WORKSPACES/${victim.id}`, `//_sandbox/workspaces/${victim.id}`]) {
      expect((await rawRequest(t.app, 'DELETE', path)).status, path).toBe(404);
    }
    expect((await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner))).status).toBe(200);
  });

  it('When reset, users, clock, revoke, call log, coverage or clearing the journal are spelled in capitals, then each is 404 and changes nothing', async () => {
    const { t, create, journalOf } = await hosted();
    const victim = await create();
    await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner));
    const world = t.worlds.live(victim.id)!.world;
    const version = world.store.version;
    const calls: [string, string, string?][] = [
      ['POST', `/_SANDBOX/reset?workspace=${victim.id}`],
      ['POST', `/_SANDBOX/users?workspace=${victim.id}`, '{}'],
      ['GET', `/_SANDBOX/clock?workspace=${victim.id}`],
      ['POST', `/_SANDBOX/clock/advance?workspace=${victim.id}`, '{"days":300}'],
      ['POST', `/_SANDBOX/channels/${CHANNEL}/revoke-authorization?workspace=${victim.id}`],
      ['GET', `/_SANDBOX/channels/${CHANNEL}/calls?workspace=${victim.id}`],
      ['GET', `/_SANDBOX/coverage?workspace=${victim.id}`],
      ['DELETE', `/_SANDBOX/requests?workspace=${victim.id}`],
      ['POST', `/_SANDBOX/workspaces/${victim.id}/reset`],
    ];
    for (const [method, path, body] of calls) {
      const res = await rawRequest(t.app, method, path, body ? { 'Content-Type': 'application/json' } : {}, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect(world.store.version).toBe(version);
    expect(world.clock.offset).toBe(0);
    expect((await journalOf(victim.id)).data.map((e) => e.path)).toEqual(['/2024-09/merchants']);
    expect(t.errors).toEqual([]);
  });

  it('When workspaces are created through another spelling, then no workspace is made, and the trailing-slash spelling counts against the limit', async () => {
    const { t } = await hosted({ workspaceCreatePerMinute: 2 });
    expect((await rawRequest(t.app, 'POST', '/_SANDBOX/workspaces')).status).toBe(404);
    expect((await rawRequest(t.app, 'POST', '//_sandbox/workspaces')).status).toBe(404);
    expect(t.worlds.workspaceCount).toBe(0);
    // The same operation with a trailing slash (Express's non-strict routing) goes the slow way: the same limit.
    expect((await rawRequest(t.app, 'POST', '/_sandbox/workspaces/')).status).toBe(201);
    expect((await rawRequest(t.app, 'POST', '/_sandbox/workspaces')).status).toBe(201);
    const third = await rawRequest(t.app, 'POST', '/_sandbox/workspaces/');
    expect(third.status).toBe(429);
    expect(third.headers['retry-after']).toBeDefined();
  });
});

describe('regression: a stranger is answered before anything of the request is read or kept', () => {
  for (const [label, method, path] of [
    ['the versioned API', 'POST', '/2024-09/channels'],
    ['the control plane', 'POST', '/_sandbox/users'],
  ] as const) {
    it(`When a gzip body that inflates past the body limit comes without a token (${label}), then 401, not 413, and its entry keeps no body`, async () => {
      const { t, journalOf } = await hosted({ bodyLimit: 64 * 1024 });
      const inflated = JSON.stringify({ merchant_id: MERCHANT, name: 'x'.repeat(1024 * 1024) });
      const gzip = gzipSync(inflated);
      expect(gzip.length).toBeLessThan(4 * 1024);
      const res = await rawRequest(t.app, method, path, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, gzip);
      expect(res.status).toBe(401);
      // Malformed JSON without a token: still the token first.
      expect((await rawRequest(t.app, method, path, { 'Content-Type': 'application/json' }, '{"name":')).status).toBe(401);
      const entries = (await journalOf('default')).data.filter((e) => e.path === path);
      expect(entries.map((e) => e.status)).toEqual([401, 401]);
      for (const entry of entries) expect(entry.request.body ?? null).toBeNull();
      expect(t.errors).toEqual([]);
    });
  }
});

describe('regression: only an authenticated request belongs to a workspace', () => {
  it("When a forged `Bearer ws_<victim id>.x` calls the API, then 401, and the victim's journal, coverage and idle time are untouched", async () => {
    const { t, clock, create, journalOf } = await hosted({ workspaceIdleTtlMs: HOUR });
    const victim = await create();
    await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner));
    const coverage = async () => (await rawRequest(t.app, 'GET', `/_sandbox/coverage?workspace=${victim.id}`, bearer(ADMIN))).body;
    const before = { journal: await journalOf(victim.id), coverage: await coverage() };
    // A forger keeps calling for most of an hour, with the victim's id as the prefix.
    for (let minute = 0; minute < 50; minute += 10) {
      clock.ms += 10 * 60 * 1000;
      const res = await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(`ws_${victim.id}.x`));
      expect(res.status).toBe(401);
      expect((res.body as { message: string }).message).toBe('Unauthenticated.');
      expect((await rawRequest(t.app, 'GET', '/_sandbox/clock', bearer(`ws_${victim.id}.forged.demo-owner-token`))).status).toBe(401);
    }
    expect({ journal: await journalOf(victim.id), coverage: await coverage() }).toEqual(before);
    // Past the hour since the victim's last own call, the workspace is gone: the forger kept nothing alive.
    clock.ms += 11 * 60 * 1000;
    const late = await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner));
    expect(late.status).toBe(401);
    expect((late.body as { message: string }).message).toBe(WORKSPACE_GONE_MESSAGE);
  });

  it('When lookups without a token name a workspace (?workspace=, an image URL), then they do not keep it alive past its idle time', async () => {
    const { t, clock, create } = await hosted({ workspaceIdleTtlMs: HOUR });
    const victim = await create();
    await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner));
    for (let minute = 0; minute < 60; minute += 15) {
      clock.ms += 15 * 60 * 1000 - 1;
      expect((await rawRequest(t.app, 'GET', `/_sandbox/requests?workspace=${victim.id}`)).status).toBe(401);
      expect((await rawRequest(t.app, 'GET', `/_sandbox/clock?workspace=${victim.id}`)).status).toBe(401);
      expect((await rawRequest(t.app, 'GET', `/_sandbox/uploads/product-images/x/y.png?workspace=${victim.id}`)).status).toBe(404);
      expect((await rawRequest(t.app, 'GET', `/_retailer/authorize?state=ws_${victim.id}.forged`)).status).toBe(400);
    }
    clock.ms += 10;
    expect((await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner))).status).toBe(401);
  });

  it('When the workspace keeps being used with its own token, then it stays alive (the same walk, with the owner)', async () => {
    const { t, clock, create } = await hosted({ workspaceIdleTtlMs: HOUR });
    const victim = await create();
    for (let minute = 0; minute < 120; minute += 15) {
      clock.ms += 15 * 60 * 1000;
      expect((await rawRequest(t.app, 'GET', '/_sandbox/clock', bearer(victim.tokens.owner))).status).toBe(200);
    }
    expect((await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner))).status).toBe(200);
  });
});

describe('regression: a token of a workspace that no longer exists', () => {
  it('When the workspace was deleted, then its token answers 401 saying the workspace is gone, on the API and the control plane', async () => {
    const { t, create } = await hosted();
    const ws = await create();
    expect((await rawRequest(t.app, 'DELETE', `/_sandbox/workspaces/${ws.id}`, bearer(ws.tokens.owner))).status).toBe(204);
    for (const [method, path] of [
      ['GET', '/2024-09/merchants'],
      ['GET', '/_sandbox/clock'],
      ['GET', '/_sandbox/requests'],
    ] as const) {
      const res = await rawRequest(t.app, method, path, bearer(ws.tokens.member));
      expect(res.status, path).toBe(401);
      expect((res.body as { message: string }).message, path).toBe(WORKSPACE_GONE_MESSAGE);
    }
  });

  it('When the workspace expired unused, then its token answers 401 saying so', async () => {
    const { t, clock, create } = await hosted({ workspaceIdleTtlMs: HOUR });
    const ws = await create();
    clock.ms += HOUR;
    const res = await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(ws.tokens.owner));
    expect(res.status).toBe(401);
    expect((res.body as { message: string }).message).toBe(WORKSPACE_GONE_MESSAGE);
  });
});

describe('regression: the bearer scheme is read as RFC 9110 reads it', () => {
  it('When the scheme is in another case or followed by several spaces or a tab, then the token is accepted', async () => {
    const { t, create } = await hosted();
    const ws = await create();
    for (const header of [`BEARER  ${ws.tokens.owner}`, `bearer\t${ws.tokens.owner}`, `Bearer \t ${ws.tokens.owner}`, `bEaReR ${ws.tokens.owner}`]) {
      expect((await rawRequest(t.app, 'GET', '/2024-09/merchants', { Authorization: header })).status, JSON.stringify(header)).toBe(200);
      expect((await rawRequest(t.app, 'GET', '/_sandbox/clock', { Authorization: header })).status, JSON.stringify(header)).toBe(200);
    }
    for (const header of ['Bearer', `Bearer${ws.tokens.owner}`, `Basic ${ws.tokens.owner}`]) {
      expect((await rawRequest(t.app, 'GET', '/2024-09/merchants', { Authorization: header })).status, header).toBe(401);
    }
  });
});
