// Every control-plane operation of the contract, walked with other spellings of its path, `?workspace=<victim>`,
// and every kind of caller, through the real server in hosted mode: nobody reaches what they may not, and the
// victim's world, journal, coverage and idle time stay exactly as the victim left them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listOperations, loadContract } from '../../src/contract/document/load-contract.js';
import { testApp } from '../helpers/app.js';
import { rawRequest } from './raw-request.js';
import { ADMIN, bearer, PUBLIC_URL, UNTHROTTLED } from './support.js';

const CHANNEL = 'cccccccc-cccc-4ccc-8ccc-ccccccccc001';
/** A seeded demo user: in every world. */
const USER = '22222222-2222-4222-8222-222222222222';
const controlPlane = listOperations(loadContract().doc).filter((op) => op.operation['x-sandbox-access'] !== undefined);
const BODIES: Record<string, unknown> = { createSandboxUser: {}, advanceSandboxClock: { hours: 1 } };

type Caller = 'none' | 'other' | 'forged' | 'admin';

async function hostedWorld() {
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const t = await testApp(
    { hosted: true, adminToken: ADMIN, publicUrl: PUBLIC_URL, adminAttemptsPerHour: UNTHROTTLED, workspaceCreatePerMinute: 10_000 },
    { now: () => clock.ms },
  );
  const create = async () => ((await rawRequest(t.app, 'POST', '/_sandbox/workspaces')).body as { data: { id: string; tokens: Record<string, string> } }).data;
  const victim = await create();
  const other = await create();
  // The victim's own traffic: one journaled call and one covered status.
  expect((await rawRequest(t.app, 'GET', '/2024-09/merchants', bearer(victim.tokens.owner))).status).toBe(200);
  const tokenOf: Record<Caller, Record<string, string>> = {
    none: {},
    other: bearer(other.tokens.owner),
    forged: bearer(`ws_${victim.id}.x`),
    admin: bearer(ADMIN),
  };
  return { t, clock, victim, other, tokenOf };
}

type World = Awaited<ReturnType<typeof hostedWorld>>;

/** What the victim's workspace holds, read without touching it (admin reads keep no workspace alive). */
async function victimState({ t, victim }: World) {
  const ws = t.worlds.live(victim.id);
  const journal = await rawRequest(t.app, 'GET', `/_sandbox/requests?workspace=${victim.id}&limit=1000`, bearer(ADMIN));
  const coverage = await rawRequest(t.app, 'GET', `/_sandbox/coverage?workspace=${victim.id}`, bearer(ADMIN));
  return {
    live: ws !== undefined,
    lastUsedAt: ws?.lastUsedAt,
    version: ws?.world.store.version,
    clockOffset: ws?.world.clock.offset,
    journal: (journal.body as { data: { id: string }[] }).data.map((e) => e.id),
    coverage: (coverage.body as { data: unknown }).data,
  };
}

/** The operation's path with its parameters filled: the victim's workspace, a seeded channel, a seeded user. */
const concrete = (path: string, victim: string) => path.replace('{workspace}', victim).replace('{channel}', CHANNEL).replace('{user}', USER);

/** Indexes of the characters of the path's fixed text (not of its parameters), where a respelling changes the operation. */
function literalIndexes(template: string, victim: string): number[] {
  const out: number[] = [];
  let at = 0;
  for (const part of template.split(/(\{[^}]+\})/)) {
    const length = part.startsWith('{') ? concrete(part, victim).length : part.length;
    if (!part.startsWith('{')) for (let i = 0; i < length; i++) out.push(at + i);
    at += length;
  }
  return out;
}

type Respelling = 'upper' | 'encode' | 'double-slash' | 'dot-segment' | 'encoded-slash';

/** Another spelling of the same path: a letter's case, a character percent-encoded, a doubled slash, `/./`, `%2F`. */
function respell(path: string, literal: number[], kind: Respelling, pick: number): string | undefined {
  const slashes = literal.filter((i) => path[i] === '/');
  const letters = literal.filter((i) => /[a-z]/.test(path[i]!));
  const chars = literal.filter((i) => path[i] !== '/');
  const at = (list: number[]) => list[pick % list.length];
  const splice = (i: number, text: string) => path.slice(0, i) + text + path.slice(i + 1);
  switch (kind) {
    case 'upper': {
      const i = at(letters);
      return i === undefined ? undefined : splice(i, path[i]!.toUpperCase());
    }
    case 'encode': {
      const i = at(chars);
      return i === undefined ? undefined : splice(i, `%${path.charCodeAt(i).toString(16).toUpperCase().padStart(2, '0')}`);
    }
    case 'double-slash': {
      const i = at(slashes);
      return i === undefined ? undefined : splice(i, '//');
    }
    case 'dot-segment': {
      const i = at(slashes);
      return i === undefined ? undefined : splice(i, '/./');
    }
    case 'encoded-slash': {
      const i = at(slashes.filter((s) => s > 0));
      return i === undefined ? undefined : splice(i, '%2F');
    }
  }
}

const CALLERS: Caller[] = ['none', 'other', 'forged', 'admin'];

describe('the control plane by operation, whatever the spelling (hosted mode)', () => {
  it('lists every control-plane operation of the contract', () => {
    expect(controlPlane.map((op) => op.operationId).sort()).toEqual(
      [
        'advanceSandboxClock',
        'clearSandboxRequests',
        'createSandboxUser',
        'createSandboxUserToken',
        'createSandboxWorkspace',
        'deleteSandboxWorkspace',
        'exportSandboxWorkspace',
        'getSandboxClock',
        'getSandboxCoverage',
        'getSandboxHealth',
        'getSandboxInspector',
        'listChannelCalls',
        'listSandboxRequests',
        'resetSandbox',
        'resetSandboxWorkspace',
        'revokeChannelAuthorization',
      ].sort(),
    );
  });

  it('When any control-plane path is spelled another way, then no operation runs for any caller (the admin too: 404) and the victim is untouched', async () => {
    const w = await hostedWorld();
    const before = await victimState(w);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...controlPlane),
        fc.constantFrom<Respelling>('upper', 'encode', 'double-slash', 'dot-segment', 'encoded-slash'),
        fc.nat(),
        fc.constantFrom(...CALLERS),
        fc.boolean(),
        async (op, kind, pick, caller, namesVictim) => {
          const path = concrete(op.path, w.victim.id);
          const spelled = respell(path, literalIndexes(op.path, w.victim.id), kind, pick);
          fc.pre(spelled !== undefined && spelled !== path);
          const url = spelled + (namesVictim ? `?workspace=${w.victim.id}` : '');
          const body = BODIES[op.operationId];
          const headers = { ...w.tokenOf[caller], ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
          const res = await rawRequest(w.t.app, op.method, url, headers, body === undefined ? undefined : JSON.stringify(body));
          // No operation has that path (404), or an encoded slash made it another path's parameter, whose
          // operations take another method (405): either way no operation ran.
          expect([404, 405], `${op.method} ${url} as ${caller}`).toContain(res.status);
        },
      ),
      { numRuns: 400 },
    );
    expect(await victimState(w)).toEqual(before);
    // No spelling of the creation created a workspace.
    expect(w.t.worlds.workspaceCount).toBe(2);
    expect(w.t.errors).toEqual([]);
  });

  it('When a stranger, another workspace or a forged prefix calls any control-plane operation, then it never acts on the victim', async () => {
    const w = await hostedWorld();
    const before = await victimState(w);
    for (const op of controlPlane) {
      for (const caller of ['none', 'other', 'forged'] as const) {
        for (const namesVictim of [false, true]) {
          const url = concrete(op.path, w.victim.id) + (namesVictim ? `?workspace=${w.victim.id}` : '');
          const body = BODIES[op.operationId];
          const headers = { ...w.tokenOf[caller], ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) };
          const res = await rawRequest(w.t.app, op.method, url, headers, body === undefined ? undefined : JSON.stringify(body));
          const what = `${op.method} ${url} as ${caller}`;
          if (op.operation['x-sandbox-access'] === 'anyone') {
            // Health and creation take no query: naming a workspace there is a 422, never an act on it.
            expect([200, 201, 422], what).toContain(res.status);
          } else if (caller === 'none') expect(res.status, what).toBe(401);
          else if (caller === 'forged') {
            expect(res.status, what).toBe(401);
            expect((res.body as { message: string }).message, what).toBe('Unauthenticated.');
          } else {
            // Another workspace's token: its own world only; naming the victim (query or path) is 403.
            const named = namesVictim || op.path.includes('{workspace}');
            if (named) expect(res.status, what).toBe(403);
            else expect(res.status, what).toBeLessThan(300);
          }
        }
      }
    }
    expect(await victimState(w)).toEqual(before);
    expect(w.t.errors).toEqual([]);
  });

  it('When the admin token calls every control-plane operation on the victim, then it may (the operator of the service)', async () => {
    const w = await hostedWorld();
    // Destructive last: deleting the workspace ends the walk.
    const ordered = [...controlPlane].sort((a, b) => Number(a.operationId === 'deleteSandboxWorkspace') - Number(b.operationId === 'deleteSandboxWorkspace'));
    for (const op of ordered) {
      const takesQuery = op.operation['x-sandbox-access'] === 'workspace' && !op.path.includes('{workspace}');
      const url = concrete(op.path, w.victim.id) + (takesQuery ? `?workspace=${w.victim.id}` : '');
      const body = BODIES[op.operationId];
      const res = await rawRequest(
        w.t.app,
        op.method,
        url,
        { ...bearer(ADMIN), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body === undefined ? undefined : JSON.stringify(body),
      );
      expect(res.status, `${op.method} ${url} as admin`).toBeLessThan(300);
    }
    expect(w.t.worlds.live(w.victim.id)).toBeUndefined();
    expect(w.t.errors).toEqual([]);
  });
});
