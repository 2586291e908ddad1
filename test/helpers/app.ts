import type { Server } from 'node:http';
import { onTestFinished } from 'vitest';
import { createApp } from '../../src/app.js';
import { createRuntime } from '../../src/runtime.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { createServer } from '../../src/server.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';
import type { MemoryGauge } from '../../src/memory-budget.js';
import { compileContract, type CompiledContract } from '../../src/compiled-contract.js';
import { freshWorld, testBases } from './test-world.js';

/**
 * The contract every sandbox of this test process serves, read and compiled once (src/compiled-contract.ts): each
 * operation's validator checks compile on its first request in the process, not again in every testApp(). A memo of
 * the test helper's module: one per test file where vitest isolates files, one per worker where it runs files one
 * after another on the same modules (the quick and rest projects, vitest.config.ts). The sandbox itself keeps no
 * registry: the compiled contract is handed to createRuntime, as startSandbox's `contract` option takes it.
 */
export const contract = compileContract();

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

export interface TestAppOptions {
  /** The registry's time (workspace idle expiry), for tests that move it instead of sleeping. */
  now?: () => number;
  /** Each request's log line (config.logLevel decides which lines). */
  requestLog?: (line: string) => void;
  /** The registry's memory gauge, for tests that drive the memory budget without allocating. */
  memory?: MemoryGauge;
  /** The compiled contract, for a test that needs checks compiled for it alone; by default the one shared above. */
  contract?: CompiledContract;
}

/**
 * A fresh sandbox over its own in-memory, freshly seeded world, with response validation on as in production.
 * `app` is the server a user starts (`createServer`). Call it in
 * beforeEach (or per test) so no test sees another's writes: there it listens on 127.0.0.1 until the test ends.
 */
export async function testApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}) {
  const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent', ...overrides };
  const world = freshWorld(config.seed);
  // `now` is the wall clock of workspace idle expiry, for tests that move it instead of sleeping.
  const worlds = new Worlds(world, { ...worldsOptions(config), now: options.now, seeded: testBases, memory: options.memory });
  const errors: string[] = [];
  const runtime = createRuntime({ worlds, config, contract: options.contract ?? contract, log: (line) => errors.push(line), requestLog: options.requestLog });
  const server = createServer(runtime, createApp(runtime));
  await listenForTheTest(server);
  return {
    app: server,
    /** The answers the server replays; tests read `cache.stats` to tell a replayed answer from a computed one. */
    cache: server.responseCache,
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

/**
 * Listens on a free port of 127.0.0.1 until the running test finishes, so all of a test's requests reach one origin:
 * a replayed answer is kept per Host, and supertest would otherwise listen on a new port for each request. Outside a
 * test (beforeAll) there is no end to wait for: supertest listens per request.
 */
async function listenForTheTest(server: Server): Promise<void> {
  try {
    onTestFinished(() => closeServer(server));
  } catch {
    return;
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  // Keep-alive sockets of the test's clients would otherwise hold close() open.
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
