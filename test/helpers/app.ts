import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { MemoryPersistence } from '../../src/store/persistence-memory.js';
import { openWorld } from '../../src/world.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';

/** The demo users of fixtures/identity.json, by role. */
export const demo = {
  owner: { id: '11111111-1111-4111-8111-111111111111', token: 'demo-owner-token' },
  member: { id: '22222222-2222-4222-8222-222222222222', token: 'demo-member-token' },
  outsider: { id: '33333333-3333-4333-8333-333333333333', token: 'demo-outsider-token' },
  rival: { id: '44444444-4444-4444-8444-444444444444', token: 'demo-rival-token' },
  merchant: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  rivalMerchant: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
} as const;

export type DemoUser = 'owner' | 'member' | 'outsider' | 'rival';

/**
 * A fresh app over its own in-memory, freshly seeded world, with response validation on as in production.
 * Call it in beforeEach (or per test) so no test sees another's writes.
 */
export async function testApp(overrides: Partial<Config> = {}, options: { now?: () => number } = {}) {
  const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent', ...overrides };
  const world = await openWorld({ id: 'main', persistence: new MemoryPersistence(), seed: config.seed });
  // `now` is the wall clock of workspace idle expiry and the creation limit, for tests that move it instead of sleeping.
  const worlds = new Worlds(world, { ...worldsOptions(config), now: options.now });
  const errors: string[] = [];
  const runtime = createRuntime({ worlds, config, log: (line) => errors.push(line), now: options.now });
  const app = createApp(runtime);
  return {
    app,
    runtime,
    world,
    worlds,
    store: world.store.collections,
    clock: world.clock,
    /** Unexpected errors the app logged: a test that expects none can assert this stays empty. */
    errors,
    auth: (who: DemoUser) => ({ Authorization: `Bearer ${demo[who].token}` }),
    bearer: (token: string) => ({ Authorization: `Bearer ${token}` }),
  };
}

export type TestApp = Awaited<ReturnType<typeof testApp>>;
