import request from 'supertest';
import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { MemoryPersistence } from '../../src/store/persistence-memory.js';
import { openWorld } from '../../src/world.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';

/** The admin token the hosted tests start with. */
export const ADMIN = 'test-admin-secret-0123456789';

/**
 * A fresh app in hosted mode (or local with `hosted: false`), with a wall clock the test moves (`clock.ms`), which
 * drives the per-address creation limit and workspace idleness.
 */
export async function hostedApp(overrides: Partial<Config> = {}) {
  const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent', hosted: true, adminToken: ADMIN, workspaceCreatePerMinute: 10, ...overrides };
  const clock = { ms: Date.parse('2026-01-01T00:00:00Z') };
  const world = await openWorld({ id: 'main', persistence: new MemoryPersistence(), seed: config.seed });
  const worlds = new Worlds(world, { ...worldsOptions(config), now: () => clock.ms });
  const errors: string[] = [];
  const app = createApp(createRuntime({ worlds, config, log: (line) => errors.push(line), now: () => clock.ms }));
  return { app, worlds, clock, errors };
}

export type Tokens = Record<'owner' | 'member' | 'outsider' | 'rival', string>;

/** Creates a workspace through the API, as a visitor would. */
export async function newWorkspace(app: Parameters<typeof request>[0]): Promise<{ id: string; tokens: Tokens }> {
  const res = await request(app).post('/_sandbox/workspaces').expect(201);
  return res.body.data;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
