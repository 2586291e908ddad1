import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/parse-args.js';
import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { configFromOptions, defaultConfig } from '../../src/config.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { WorkspaceRefused, Worlds } from '../../src/worlds.js';
import { testApp } from '../helpers/app.js';
import { memoryReading } from '../helpers/memory-reading.js';
import { worldModel } from '../../src/areas/world-model.js';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

describe('the memory budget of workspaces', () => {
  it('When the heap is past its budget, then creating a workspace answers 503 with Retry-After and a message, existing ones keep working, and creation resumes below it', async () => {
    const heap = memoryReading({ oldGeneration: 80 });
    const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: defaultConfig.seed });
    const worlds = new Worlds(world, { heapBudgetPercent: 85, memory: () => heap });
    const errors: string[] = [];
    const app = createApp(createRuntime({ worlds, config: { ...defaultConfig, store: 'memory', logLevel: 'silent' }, log: (line) => errors.push(line) }));
    const before = await request(app).post('/_sandbox/workspaces').expect(201);
    heap.oldGeneration = 86;
    const res = await request(app).post('/_sandbox/workspaces').expect(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/short of memory/);
    expect(worlds.workspaceCount).toBe(1);
    await request(app)
      .get(`/2024-09/products?merchant_id=${MERCHANT}`)
      .set({ Authorization: `Bearer ${before.body.data.tokens.owner}` })
      .expect(200);
    heap.oldGeneration = 84;
    await request(app).post('/_sandbox/workspaces').expect(201);
    expect(errors).toEqual([]);
  });

  it('When the workspace limit is reached, then creating one more answers 429 with Retry-After', async () => {
    const t = await testApp({ maxWorkspaces: 1 });
    await request(t.app).post('/_sandbox/workspaces').expect(201);
    const res = await request(t.app).post('/_sandbox/workspaces').expect(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body.message).toMatch(/1 workspaces/);
  });

  it('When the registry refuses a workspace, then it throws a WorkspaceRefused saying why and when to retry, not an HTTP error', async () => {
    const heap = memoryReading();
    const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: defaultConfig.seed });
    const worlds = new Worlds(world, { maxWorkspaces: 1, heapBudgetPercent: 85, memory: () => heap });
    heap.oldGeneration = 90;
    expect(() => worlds.createWorkspace()).toThrow(expect.objectContaining({ reason: 'memory', retryAfterSeconds: 60 }));
    heap.oldGeneration = 0;
    worlds.createWorkspace();
    const refusal = (() => {
      try {
        worlds.createWorkspace();
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(WorkspaceRefused);
    expect(refusal).toMatchObject({ reason: 'limit', retryAfterSeconds: 60 });
    expect(refusal).not.toHaveProperty('status');
    await worlds.close();
  });

  it('When MAX_WORKSPACES=100000, WORKSPACE_CREATE_PER_MINUTE=100000 and HEAP_BUDGET_PERCENT=70 are set, then the configuration takes them; out of range, it says so', () => {
    const parsed = parseArgs([]);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const { options } = parsed;
    const ok = configFromOptions(options, { MAX_WORKSPACES: '100000', WORKSPACE_CREATE_PER_MINUTE: '100000', HEAP_BUDGET_PERCENT: '70' });
    expect(ok.errors).toEqual([]);
    expect(ok.config).toMatchObject({ maxWorkspaces: 100_000, workspaceCreatePerMinute: 100_000, heapBudgetPercent: 70 });
    const bad = configFromOptions(options, { MAX_WORKSPACES: '100001', HEAP_BUDGET_PERCENT: '99' });
    expect(bad.errors).toEqual([
      "MAX_WORKSPACES must be an integer from 1 to 100000, got '100001'",
      "HEAP_BUDGET_PERCENT must be an integer from 1 to 95, got '99'",
    ]);
  });
});
