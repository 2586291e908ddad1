// Micro-benchmark of the store's file layer alone (no HTTP): does a commit cost more when the store is bigger?
// Run: npx tsx bench/persistence-commit.ts [--quick]
// For each store size it measures, on a real file in the OS temp dir:
//   - sequential: one commit at a time (latency of a lone request's write),
//   - concurrent: 32 commits in flight (group commit; like 32 connections), commits/s and latency,
//   - compacting: the same 32-way load while a background compaction of the whole store runs without pause,
//     to show the snapshot rewrite stays off the request path,
//   - load: start-up time (snapshot + journal replay),
// and, as the baseline it replaces, lowdb's whole-file rewrite per commit (WholeFilePersistence).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { JournalPersistence, type JournalPersistenceOptions } from '../src/store/persistence-journal.js';
import { WholeFilePersistence } from './whole-file-baseline.js';
import type { Persistence, Snapshot } from '../src/store/persistence.js';
import { aProduct } from '../test/store/helpers.js';

const quick = process.argv.includes('--quick');
const sizes = quick ? [1_000, 10_000] : [1_000, 10_000, 100_000];
const sequentialCommits = quick ? 500 : 2_000;
const concurrentMs = quick ? 1_000 : 3_000;
const inFlight = 32;

/** The same product-sized record the store tests use. */
const product = (i: number) => aProduct(i);

/**
 * A store stand-in that commits like the real one: replace the record, then commit with a snapshot callback.
 * Each commit rewrites one existing product (a new updated_at), so the store keeps its size for the whole run
 * and a size's figures are that size's (a create writes the same one-record line).
 */
class World {
  readonly products = new Map<string, unknown>();
  private turn = 0;
  constructor(
    readonly persistence: Persistence,
    readonly size: number,
  ) {
    for (let i = 0; i < size; i++) this.products.set(product(i).id, product(i));
  }
  snapshot = (): Snapshot => ({ format: 1, seed: 1, collections: { products: [...this.products.values()] } });
  commit(): Promise<void> {
    const i = this.turn++ % this.size;
    const record = { ...product(i), updated_at: new Date(Date.UTC(2024, 6, 1) + this.turn).toISOString() };
    this.products.set(record.id, record);
    return this.persistence.commit([{ c: 'products', op: 'put', id: record.id, rec: record }], this.snapshot);
  }
}

async function timed(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

function stats(samples: number[]): { median: number; p99: number; max: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] };
}

async function sequential(world: World, count: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) samples.push(await timed(() => world.commit()));
  return samples;
}

/** Event-loop stalls during a run (ms): what every other request would have waited for, whatever it was doing. */
let loopDelay = monitorEventLoopDelay({ resolution: 1 });

async function concurrent(world: World, ms: number): Promise<{ samples: number[]; perSecond: number }> {
  loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const samples: number[] = [];
  const until = performance.now() + ms;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < until) samples.push(await timed(() => world.commit()));
    }),
  );
  loopDelay.disable();
  return { samples, perSecond: samples.length / ((performance.now() - start) / 1000) };
}

const rows: string[] = [];
const fmt = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));
function row(size: number, mode: string, samples: number[], perSecond?: number): void {
  const s = stats(samples);
  const loop = perSecond ? `${fmt(loopDelay.percentile(99) / 1e6)} / ${fmt(loopDelay.max / 1e6)}` : '';
  const line = `| ${size.toLocaleString('en-US')} | ${mode} | ${samples.length} | ${fmt(s.median)} | ${fmt(s.p99)} | ${fmt(s.max)} | ${perSecond ? Math.round(perSecond).toLocaleString('en-US') : ''} | ${loop} |`;
  rows.push(line);
  console.log(line);
}

async function withFile<T>(fn: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-bench-'));
  try {
    return await fn(join(dir, 'sandbox.json'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function journalRuns(size: number): Promise<void> {
  await withFile(async (file) => {
    const persistence = JournalPersistence.open(file);
    const world = new World(persistence, size);
    const seedMs = await timed(() => persistence.replaceAll(world.snapshot()));
    row(size, 'journal, sequential', await sequential(world, sequentialCommits));
    const c = await concurrent(world, concurrentMs);
    row(size, `journal, ${inFlight} in flight`, c.samples, c.perSecond);
    await persistence.close();

    const reopened = JournalPersistence.open(file);
    let loaded: Snapshot | undefined;
    const loadMs = await timed(async () => void (loaded = await reopened.load()));
    await reopened.close();
    console.log(
      `   first snapshot write ${fmt(seedMs)} ms; load (snapshot + journal replay, ${loaded!.collections.products.length} records) ${fmt(loadMs)} ms`,
    );
  });
  await withFile(async (file) => {
    // Compaction forced to run back to back for the whole measurement.
    const options: JournalPersistenceOptions = { compactMinBytes: 64 * 1024, compactGrowth: 0, onBackgroundError: (e) => console.error(e) };
    const persistence = JournalPersistence.open(file, options);
    const world = new World(persistence, size);
    await persistence.replaceAll(world.snapshot());
    const c = await concurrent(world, concurrentMs);
    row(size, `journal, ${inFlight} in flight, compacting`, c.samples, c.perSecond);
    await persistence.close();
  });
}

async function wholeFileRuns(size: number): Promise<void> {
  await withFile(async (file) => {
    const persistence = new WholeFilePersistence(file);
    const world = new World(persistence, size);
    await persistence.replaceAll(world.snapshot());
    const count = size >= 100_000 ? 5 : size >= 10_000 ? 30 : 200;
    row(size, 'whole-file lowdb, sequential', await sequential(world, count));
    await persistence.close();
  });
}

console.log(`node ${process.version}, ${new Date().toISOString()}`);
console.log('| records in store | mode | commits | median ms | p99 ms | max ms | commits/s | event-loop delay p99 / max ms |');
console.log('|---|---|---|---|---|---|---|---|');
for (const size of sizes) {
  await journalRuns(size);
  await wholeFileRuns(size);
}
