// Starts the seeding of a world on another thread (src/seed-worker.ts), when the start is going to seed one.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Config } from './config.js';
import type { Snapshot } from './store/persistence.js';
import { readSeededWorldJson } from './seeded-world-json.js';

/**
 * The seeded snapshot of `config.seed`: the one the build wrote for this worker script when there is one (the
 * default seed, src/seeded-world-json.ts), else computed on a worker thread; undefined when this start will not seed
 * (the data file exists and is kept) or when there is no built worker (run from the sources). A worker that fails
 * answers undefined: the world is then seeded in place, as without one.
 */
export function seedOnAThread(
  config: Pick<Config, 'store' | 'dataFile' | 'reset' | 'seed'>,
  // The built worker beside this file; a test runs the sources' under a loader.
  { script = new URL('./seed-worker.js', import.meta.url), execArgv }: { script?: URL; execArgv?: string[] } = {},
): Promise<Snapshot | undefined> | undefined {
  const seeds = config.store === 'memory' || config.reset || !existsSync(resolve(config.dataFile));
  if (!seeds || !existsSync(script)) return undefined;
  return readSeededWorldJson(script, config.seed).then((built) => built ?? seedOnWorker(config.seed, script, execArgv));
}

function seedOnWorker(seed: number, script: URL, execArgv: string[] | undefined): Promise<Snapshot | undefined> {
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
