// Run by bench/workspace-bench.ts in its own process with --expose-gc: the memory of untouched workspaces (and of
// the same once used, their world made, nothing written) and the time one creation takes, measured in-process (no HTTP) so nothing else allocates between the readings.
// Prints one JSON line.
import { defaultConfig } from '../src/config.js';
import { MemoryPersistence } from '../src/store/store.js';
import { openWorld } from '../src/world.js';
import { Worlds, type Workspace } from '../src/worlds.js';
import { worldModel } from '../src/areas/world-model.js';

const total = Number(process.argv[2] ?? 10_000);
const sample = Math.min(1000, total);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

function settled(): { rss: number; heap: number } {
  for (let i = 0; i < 3; i++) gc!();
  const m = process.memoryUsage();
  return { rss: m.rss, heap: m.heapUsed + m.external };
}

const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: defaultConfig.seed });
const worlds = new Worlds(world, { maxWorkspaces: total + 1, heapBudgetPercent: 95 });
worlds.createWorkspace(); // the seeded base is built once, on the first creation
const before = settled();
const times: number[] = [];
const sampled: Workspace[] = [];
const create = () => {
  const t = process.hrtime.bigint();
  const ws = worlds.createWorkspace();
  times.push(Number(process.hrtime.bigint() - t) / 1e6);
  return ws;
};
for (let i = 0; i < sample; i++) sampled.push(create());
const afterSample = settled();
// A workspace's world (its copy-on-write view, clock and resources) is made on first use: once used, reading only.
for (const ws of sampled) void ws.world;
const afterUse = settled();
for (let i = sample; i < total; i++) create();
const atTotal = settled();
times.sort((a, b) => a - b);
process.stdout.write(
  `${JSON.stringify({
    workspaces: total,
    rssPerWorkspaceKiB: (afterSample.rss - before.rss) / sample / 1024,
    heapPerWorkspaceKiB: (afterSample.heap - before.heap) / sample / 1024,
    usedHeapPerWorkspaceKiB: (afterUse.heap - before.heap) / sample / 1024,
    rssAtTotalMiB: atTotal.rss / 2 ** 20,
    createP50Ms: times[Math.floor(times.length * 0.5)],
    createP99Ms: times[Math.floor(times.length * 0.99)],
    createMaxMs: times[times.length - 1],
  })}\n`,
);
await worlds.close();
