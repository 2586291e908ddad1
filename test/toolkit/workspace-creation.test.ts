import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { createRuntime } from '../../src/runtime.js';
import { createServer } from '../../src/server.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';
import { memoryReading } from '../helpers/memory-reading.js';
import type { MemoryReading } from '../../src/memory-budget.js';
import { worldModel } from '../../src/areas/world-model.js';
import { contract } from '../helpers/app.js';

/**
 * One runtime served twice: `fast` is the server a user starts, `slow` is its Express app alone (supertest's own
 * server). Both feed the same journal and log, and answer through the one pipeline.
 */
async function bothPaths(overrides: Partial<Config> = {}, memory?: MemoryReading) {
  const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'info', ...overrides };
  const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: config.seed });
  const worlds = new Worlds(world, { ...worldsOptions(config), ...(memory ? { memory: () => memory } : {}) });
  const lines: Record<string, unknown>[] = [];
  const errors: string[] = [];
  const runtime = createRuntime({ worlds, config, contract, log: (line) => errors.push(line), requestLog: (line) => lines.push(JSON.parse(line)) });
  const app = createApp(runtime);
  const fast = createServer(runtime, app);
  return { fast, slow: app, runtime, worlds, lines, errors };
}

/** What two answers to a creation must share: everything but the date, the request id and the new workspace's own values. */
function comparable(res: request.Response) {
  const headers = Object.entries(res.headers).filter(([name]) => name !== 'date' && name !== 'x-request-id');
  const data = res.body.data as { id: string; tokens: Record<string, string>; created_at: string } | undefined;
  const body = data ? { data: { ...data, id: 'ID', tokens: Object.keys(data.tokens), created_at: 'AT' } } : res.body;
  return { status: res.status, headers, body, length: res.text.length };
}

/** A journal entry without what differs between any two requests (supertest listens on a new port for each). */
function journaled(entry: { request: { headers: Record<string, string> }; trail?: Record<string, unknown> } & Record<string, unknown>) {
  const { id: _id, at: _at, duration_ms: _ms, response: _response, request, trail, ...rest } = entry;
  const { host: _host, 'x-request-id': _rid, ...headers } = request.headers;
  return { ...rest, request: { ...request, headers }, trail };
}

describe('workspace creation, through the server a user starts and through its app alone', () => {
  it('When a plain creation is answered by the server, then its answer, journal entry and log line are the ones its app gives', async () => {
    const t = await bothPaths();
    const fast = await request(t.fast).post('/_sandbox/workspaces').set('X-Request-Id', 'fast-1').expect(201);
    const slow = await request(t.slow).post('/_sandbox/workspaces').set('X-Request-Id', 'slow-1').expect(201);
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(fast.headers['x-request-id']).toBe('fast-1');
    // Both workspaces exist and work.
    for (const res of [fast, slow]) {
      await request(t.fast)
        .get('/2024-09/users/current')
        .set({ Authorization: `Bearer ${res.body.data.tokens.owner}` })
        .expect(200);
    }
    const [slowEntry, fastEntry] = t.runtime.observations.journal.list({ operationId: 'createSandboxWorkspace' });
    expect(fastEntry).toMatchObject({ id: 'fast-1', status: 201, response: { body: { data: { id: fast.body.data.id, tokens: '[REDACTED]' } } } });
    expect(journaled(fastEntry as never)).toEqual(journaled(slowEntry as never));
    expect([fastEntry?.trail?.response_check, slowEntry?.trail?.response_check]).toEqual(['passed', 'passed']);
    const logged = t.lines.filter((line) => line.operation_id === 'createSandboxWorkspace');
    const withoutTimes = ({ time: _t, duration_ms: _d, request_id: _r, ...rest }: Record<string, unknown>) => rest;
    expect(logged.map((line) => line.request_id)).toEqual(['fast-1', 'slow-1']);
    expect(withoutTimes(logged[0]!)).toEqual(withoutTimes(logged[1]!));
    expect(JSON.stringify(t.runtime.observations.journal.list())).not.toContain(fast.body.data.tokens.owner);
    expect(t.errors).toEqual([]);
  });

  it('When an Origin calls with a list of allowed origins, then the server grants it (or not) exactly as its app does', async () => {
    const t = await bothPaths({ corsOrigins: ['http://docs.test'] });
    for (const origin of ['http://docs.test', 'http://elsewhere.test']) {
      const fast = await request(t.fast).post('/_sandbox/workspaces').set('Origin', origin).expect(201);
      const slow = await request(t.slow).post('/_sandbox/workspaces').set('Origin', origin).expect(201);
      expect(comparable(fast)).toEqual(comparable(slow));
    }
  });

  it('When the workspace limit or the memory budget refuses, then the server answers 429 or 503 with Retry-After as its app does', async () => {
    const memory = memoryReading();
    const t = await bothPaths({ maxWorkspaces: 1, heapBudgetPercent: 85 }, memory);
    const first = await request(t.fast).post('/_sandbox/workspaces').expect(201);
    const fullFast = await request(t.fast).post('/_sandbox/workspaces').expect(429);
    const fullSlow = await request(t.slow).post('/_sandbox/workspaces').expect(429);
    expect(comparable(fullFast)).toEqual(comparable(fullSlow));
    expect(fullFast.headers['retry-after']).toBe('60');
    t.worlds.deleteWorkspace(first.body.data.id);
    memory.oldGeneration = 90;
    const shortFast = await request(t.fast).post('/_sandbox/workspaces').expect(503);
    const shortSlow = await request(t.slow).post('/_sandbox/workspaces').expect(503);
    expect(comparable(shortFast)).toEqual(comparable(shortSlow));
    expect(shortFast.body.message).toMatch(/short of memory/);
    expect(t.runtime.observations.journal.list({ status: 503 }).map((e) => e.response.body)).toEqual([shortSlow.body, shortFast.body]);
  });

  it('When one address is past its per-minute limit, then 429 with Retry-After, each creation counted once whichever path answered it', async () => {
    const t = await bothPaths({ workspaceCreatePerMinute: 2 });
    await request(t.fast).post('/_sandbox/workspaces').expect(201);
    await request(t.slow).post('/_sandbox/workspaces').expect(201);
    const refused = await request(t.fast).post('/_sandbox/workspaces').expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body.message).toMatch(/2 workspaces this minute/);
    expect(comparable(refused)).toEqual(comparable(await request(t.slow).post('/_sandbox/workspaces').expect(429)));
    expect(t.worlds.workspaceCount).toBe(2);
  });

  it('When a creation carries a query, a body or Prefer, then the tolerant reader reports what it ignored', async () => {
    const t = await bothPaths();
    const withQuery = await request(t.fast).post('/_sandbox/workspaces?colour=blue').expect(201);
    expect(withQuery.headers['sandbox-ignored-fields']).toContain('colour');
    // A body is a workspace bundle to load: one that is not is refused, and creates nothing.
    await request(t.fast).post('/_sandbox/workspaces').send({ name: 'mine' }).expect(422);
    await request(t.fast).post('/_sandbox/workspaces').set('Prefer', 'strict').expect(201);
    await request(t.fast).post('/_sandbox/workspaces/').expect(201);
    expect(t.worlds.workspaceCount).toBe(3);
  });

  it('When creating a workspace fails with a bug, then both paths answer 500 { message } and log one line with the stack, and nothing else', async () => {
    const t = await bothPaths();
    t.worlds.createWorkspace = () => {
      throw new TypeError('registry is broken');
    };
    const fast = await request(t.fast).post('/_sandbox/workspaces').expect(500);
    const slow = await request(t.slow).post('/_sandbox/workspaces').expect(500);
    // The same headers; Node places its own Content-Length after Connection where Express left it to Node.
    const sorted = (res: request.Response) => ({ ...comparable(res), headers: comparable(res).headers.sort() });
    expect(sorted(fast)).toEqual(sorted(slow));
    expect(fast.body).toEqual({ message: 'Server Error' });
    expect(fast.text).not.toMatch(/registry is broken/);
    expect(t.errors).toHaveLength(2);
    for (const line of t.errors) expect(line).toMatch(/^\[sandbox\] 500 on POST \/_sandbox\/workspaces: TypeError: registry is broken\n\s+at /);
  });
});
