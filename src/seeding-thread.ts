// Starts the seeding of a world on another thread (src/seed-worker.ts), when the start is going to seed one.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from './config.js';
import type { Snapshot } from './store/persistence.js';
import { readSeededWorldJson, readSeededWorldJsonSync } from './seeded-world-json.js';

/** The built worker beside this file (dist/src/seed-worker.js); from the sources there is none. */
const BUILT_WORKER = new URL('./seed-worker.js', import.meta.url);

/** The seeded world of `seed` as the build wrote it for this build's worker, or undefined (src/seeded-world-json.ts). */
export const builtSeededWorld = (seed: number): Snapshot | undefined => readSeededWorldJsonSync(BUILT_WORKER, seed);

/**
 * The seeded snapshot of `config.seed`: the one the build wrote for this worker script when there is one (the
 * default seed, src/seeded-world-json.ts), else computed on a worker thread; undefined when this start will not seed
 * (the data file exists and is kept) or when there is no built worker (run from the sources). A worker that fails
 * answers undefined: the world is then seeded in place, as without one.
 */
export function seedOnAThread(
  config: Pick<Config, 'store' | 'dataFile' | 'reset' | 'seed'>,
  // The built worker beside this file; a test runs the sources' under a loader.
  { script = BUILT_WORKER, execArgv }: { script?: URL; execArgv?: string[] } = {},
): Promise<Snapshot | undefined> | undefined {
  if (!seeds(config) || !existsSync(script)) return undefined;
  return readSeededWorldJson(script, config.seed).then((built) => built ?? seedOnWorker(config.seed, script, execArgv));
}

/**
 * The seeded snapshot of `config.seed` as the build wrote it, with no thread: undefined when this start will not
 * seed, or when the build wrote none for this seed (the world is then seeded in place).
 */
export function seededByTheBuild(config: Pick<Config, 'store' | 'dataFile' | 'reset' | 'seed'>): Promise<Snapshot | undefined> | undefined {
  return seeds(config) ? readSeededWorldJson(BUILT_WORKER, config.seed) : undefined;
}

/** Whether this start seeds the default world: in memory, --reset, or a data file that does not exist yet. */
const seeds = (config: Pick<Config, 'store' | 'dataFile' | 'reset'>): boolean =>
  config.store === 'memory' || config.reset || !existsSync(resolve(config.dataFile));

// node:worker_threads is loaded only here: a start that finds the build's seeded world starts no thread.
async function seedOnWorker(seed: number, script: URL, execArgv: string[] | undefined): Promise<Snapshot | undefined> {
  const { Worker } = await import('node:worker_threads');
  return new Promise((done) => {
    const worker = new Worker(script, { workerData: { seed }, ...(execArgv && { execArgv }) });
    worker.once('message', (snapshot: Snapshot) => {
      done(snapshot);
      void worker.terminate();
    });
    worker.once('error', () => done(undefined));
    worker.once('exit', () => done(undefined));
  });
}
