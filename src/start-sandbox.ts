import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Express } from 'express';
import { createApp } from './app.js';
import { warmUpAfterFirstAnswer, type WarmUp } from './pipeline/validator-warm-up.js';
import type { Config } from './config.js';
import { startConfig } from './start-options.js';
import { compileContract, type CompiledContract } from './compiled-contract.js';
import { createRuntime, type Runtime } from './runtime.js';
import { createServer, type SandboxServer } from './server.js';
import { demoTokens, type DemoRole } from './sandbox/demo-tokens.js';
import type { WorldObservations } from './observe/world-observations.js';
import { openPersistence } from './store/open-persistence.js';
import { StoreFileError, type Snapshot } from './store/persistence.js';
import { BundleRefused, readBundleFile } from './sandbox/bundle-file.js';
import { bundleContractOf } from './sandbox/bundle-contract.js';
import { loadDefaultWorld } from './sandbox/load-workspace.js';
import { tokensForRunUsers, type LoadedUser } from './sandbox/loaded-users.js';
import { turnsOf } from './http/turn-queue.js';
import { openWorldWriting } from './world.js';
import { worldModel } from './areas/world-model.js';
import { Worlds, worldsOptions } from './worlds.js';
import { builtSeededWorld, seededByTheBuild } from './seeding-thread.js';

/** Options of startSandbox: any part of the configuration. */
export type StartSandboxOptions = Partial<Config> & {
  /** Where request log lines go (stdout by default). */
  requestLog?: (line: string) => void;
  /** Where unexpected errors go (stderr by default). */
  errorLog?: (line: string) => void;
  /**
   * Compile every operation's validators in the background once listening (default true), so that no operation's
   * first call waits for them; false leaves each to its operation's first call.
   */
  warmUp?: boolean;
  /**
   * The default world's seeded snapshot, when computed elsewhere (src/seeding-thread.ts); not used with `load`.
   * Default: the build's for this seed if it wrote one (src/seeded-world-json.ts), else seeded here.
   */
  seeded?: Promise<Snapshot | undefined>;
  /**
   * A workspace bundle to load into the default world before serving (its parsed JSON, or the path of its file):
   * the world runs in memory (no data file is touched), with the bundle's seed unless `seed` is given. A bundle
   * that cannot be loaded whole rejects with a BundleRefused naming why, and nothing is served.
   */
  load?: string | object;
  /**
   * The contract compiled once (compileContract()): a process that starts several sandboxes (a test runner) passes
   * the same one to each, so the validator's checks compile once for all of them. Default: openapi.yaml, read and
   * compiled for this sandbox.
   */
  contract?: CompiledContract;
};

/** A running sandbox. */
export interface RunningSandbox {
  /** Its base URL, e.g. http://127.0.0.1:53124 (no trailing slash). */
  url: string;
  /** The default world's demo tokens by role. */
  tokens: Record<DemoRole, string>;
  /** With `load`: the users the loaded run made with POST /_sandbox/users, each with a token issued at load. */
  loadedUsers?: LoadedUser[];
  /** Puts the default world back to its seeded state (store, clock, coverage, journal entries). */
  reset(): Promise<void>;
  /** Creates an isolated workspace, e.g. one per test file: its id and demo tokens. */
  createWorkspace(): { id: string; tokens: Record<DemoRole, string> };
  /**
   * Stops listening and releases the store. Requests in flight get `graceMs` (default 0) to finish, kept-alive
   * connections close once idle, and whatever is still open after the grace is dropped.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /** Settles once the background warm-up is over (every operation's validators compiled); at once without one. */
  warmedUp: Promise<void>;
  app: Express;
  server: SandboxServer;
  /** Its wiring: the contract, the worlds, the observers and what each world keeps beside its store. */
  runtime: Runtime;
  worlds: Worlds;
  /** The request journal and each world's coverage. */
  observations: WorldObservations;
  config: Config;
}

/**
 * Starts the sandbox over real HTTP for a test runner: on 127.0.0.1 and a free port, in memory, quiet (only
 * warnings and errors), unless told otherwise. main.ts (the CLI) starts through here too.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { requestLog, errorLog, load, warmUp: warmsUp = true, seeded, contract = compileContract(), ...overrides } = options;
  let config: Config = startConfig(overrides);
  const source = typeof load === 'string' ? load : 'the bundle';
  const bundle = typeof load === 'string' ? readBundleFile(load, config.bundleMaxBytes) : load;
  if (bundle !== undefined) config = { ...config, store: 'memory', reset: false, seed: overrides.seed ?? seedOf(bundle) ?? config.seed };
  const persistence = openPersistence(config);
  const { world, written } = await openWorldWriting({
    id: 'default',
    model: worldModel,
    persistence,
    seed: config.seed,
    reset: config.reset,
    // Without a snapshot from the caller, the build's seeded world when it has this seed's (a test runner's start).
    seeded: bundle === undefined ? (seeded ?? seededByTheBuild(config)) : undefined,
  })
    .then((opened) => {
      const kept = opened.world.store.seed;
      if (overrides.seed !== undefined && kept !== overrides.seed) {
        const file = resolve(config.dataFile);
        throw new StoreFileError(
          file,
          `The data file ${file} holds a world seeded with ${kept}, not with seed ${overrides.seed} (--seed, SEED). It was left untouched. Start with --reset (or RESET=1) to reseed it with seed ${overrides.seed}, or without a seed to keep it.`,
        );
      }
      config = { ...config, seed: kept };
      return opened;
    })
    .catch(async (error: unknown) => {
      // A data file that cannot be loaded is released, so the same process can start again on it once it is mended.
      await persistence.close();
      throw error;
    });
  const worlds = new Worlds(world, { ...worldsOptions(config), defaultLoaded: bundle !== undefined, builtSeeded: builtSeededWorld });
  let runtime: Runtime;
  try {
    runtime = createRuntime({ worlds, config, contract, log: errorLog, requestLog });
  } catch (error) {
    // A configuration the runtime refuses (hosted mode without its admin token) lets the data file go, as a load does.
    await persistence.close();
    throw error;
  }
  let loadedUsers: LoadedUser[] | undefined;
  if (bundle !== undefined) {
    try {
      const checked = await loadDefaultWorld(world, bundle, {
        observations: runtime.observations,
        config,
        contract: bundleContractOf({ shared: runtime.shared, contract: runtime.loadedContract }),
        seeded: worlds.seeded,
        turns: turnsOf(runtime.shared),
      });
      loadedUsers = await tokensForRunUsers(world, checked);
    } catch (error) {
      await runtime.close();
      throw BundleRefused.of(error, source);
    }
  }
  // --reset reseeds the data file; the uploaded files beside it go too, as on POST /_sandbox/reset.
  if (config.reset) runtime.resourcesOf(world).uploads().clear();
  const app = createApp(runtime);
  const server = createServer(runtime, app);
  let warmUp: WarmUp | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Every operation's validators are compiled from the first answer on, in the background (src/pipeline/validator-warm-up.ts);
    // the set-up they share is made at once, while the first client connects, instead of on its request.
    const primed = warmsUp ? app.primeValidator().catch(() => {}) : undefined;
    if (warmsUp) warmUp = warmUpAfterFirstAnswer(server, (gate) => app.warmUp(gate));
    // A new data file's seeded world is written while the server starts to listen and answer; the start is over
    // (and a write that failed stops it, as a port in use does) once it is on disk, and the validator's set-up made.
    await Promise.all([written, primed]);
  } catch (error) {
    warmUp?.stop();
    if (server.listening) await stopListening(server);
    await runtime.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host === '0.0.0.0' ? '127.0.0.1' : config.host;
  let closed: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    tokens: demoTokens(),
    ...(loadedUsers && { loadedUsers }),
    reset: () => worlds.reset(worlds.defaultWorld),
    createWorkspace: () => {
      const ws = worlds.createWorkspace();
      return { id: ws.id, tokens: demoTokens(ws.seedTokens) };
    },
    close: (options) => {
      warmUp?.stop();
      return (closed ??= stopListening(server, options?.graceMs).then(() => runtime.close()));
    },
    warmedUp: warmUp ? warmUp.done.then(() => undefined) : Promise.resolve(),
    app,
    server,
    runtime,
    worlds,
    observations: runtime.observations,
    config,
  };
}

/**
 * Stops accepting connections and closes the idle ones; requests in flight get `graceMs` to finish, then every
 * connection still open is dropped. Resolves once the server is closed.
 */
function stopListening(server: SandboxServer, graceMs = 0): Promise<void> {
  return new Promise<void>((resolve) => {
    // A connection whose answer is sent from now on closes as soon as it is idle, instead of waiting the usual
    // keep-alive time for a next request that would find nobody listening.
    server.keepAliveTimeout = 1;
    let timer: NodeJS.Timeout | undefined;
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
    if (graceMs > 0) timer = setTimeout(() => server.closeAllConnections(), graceMs);
    else server.closeAllConnections();
  });
}

/** The seed a bundle names, if it names one (the load checks the rest). */
function seedOf(bundle: unknown): number | undefined {
  const seed = (bundle as { seed?: unknown } | null)?.seed;
  return typeof seed === 'number' && Number.isSafeInteger(seed) && seed >= 0 ? seed : undefined;
}
