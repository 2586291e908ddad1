import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { containerLimit, memoryShortage, oldGenerationLimit } from '../../src/memory-budget.js';
import { defaultConfig } from '../../src/config.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { Worlds } from '../../src/worlds.js';
import { memoryReading } from '../helpers/memory-reading.js';
import { worldModel } from '../../src/areas/world-model.js';

const MiB = 2 ** 20;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('the old space limit the memory budget holds the heap against', () => {
  // heap_size_limit as each Node reports it, with and without --max-old-space-size (read on this machine).
  it.each([
    ['Node 20', '11.3.244.8-node.37', 144, 96],
    ['Node 22', '12.4.254.21-node.33', 144, 96],
    ['Node 24', '13.6.233.17-node.40', 288, 96],
    ['Node 26', '14.6.202.33-node.20', 192, 96],
    ['Node 24', '13.6.233.17-node.40', 448, 256],
  ])(
    'When %s (V8 %s) reports a heap_size_limit of %i MiB for --max-old-space-size=%i, then the flag is the limit, whatever V8 adds for the young generation',
    (_, v8, limitMiB, oldMiB) => {
      expect(oldGenerationLimit(limitMiB * MiB, v8, [`--max-old-space-size=${oldMiB}`])).toBe(oldMiB * MiB);
    },
  );

  it.each([
    ['Node 20', '11.3.244.8-node.37', 4144],
    ['Node 22', '12.4.254.21-node.33', 4144],
    ['Node 24', '13.6.233.17-node.40', 4288],
    ['Node 26', '14.6.202.33-node.20', 4192],
  ])("When no flag sizes the old space on %s (heap_size_limit %i MiB), then the young generation's reserve of that V8 is taken off", (_, v8, limitMiB) => {
    expect(oldGenerationLimit(limitMiB * MiB, v8, [])).toBe(4096 * MiB);
  });

  it('When the flag is given in NODE_OPTIONS and on the command line, then the last one (the command line) wins, in either spelling', () => {
    expect(oldGenerationLimit(248 * MiB, '11.3', ['--max-old-space-size=96', '--max_old_space_size=200'])).toBe(200 * MiB);
    expect(oldGenerationLimit(248 * MiB, '11.3', ['--max-old-space-size', '200'])).toBe(200 * MiB);
    expect(oldGenerationLimit(4120 * MiB, '11.3', ['--max-semi-space-size=8'])).toBe(4096 * MiB);
  });

  it('When the cgroup sets no limit, then there is no container limit (Node answers 0, undefined or 2^64 - 1 for none)', () => {
    const machine = 16 * 2 ** 30;
    expect(containerLimit(2 ** 64 - 1, machine)).toBeUndefined();
    expect(containerLimit(0, machine)).toBeUndefined();
    expect(containerLimit(undefined, machine)).toBeUndefined();
    expect(containerLimit(512 * MiB, machine)).toBe(512 * MiB);
  });

  it.each([
    ['NODE_OPTIONS', { NODE_OPTIONS: '--max-old-space-size=96' }, []],
    ['the command line', {}, ['--max-old-space-size=96']],
  ])('When %s gives a process on this Node --max-old-space-size=96, then its gauge reads a 96 MiB limit and counts Buffers it holds', (_, env, args) => {
    const script = `import('./src/memory-budget.ts').then(({ processMemoryGauge }) => {
      const gauge = processMemoryGauge(); const before = gauge().external;
      const held = Buffer.alloc(32 * 2 ** 20, 1);
      console.log(JSON.stringify({ limit: gauge().oldGenerationLimit, added: gauge().external - before, kept: held.length }));
    })`;
    const out = execFileSync(process.execPath, [...args, '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    const reading = JSON.parse(out) as { limit: number; added: number };
    expect(reading.limit).toBe(96 * MiB);
    expect(reading.added).toBeGreaterThanOrEqual(32 * MiB);
  });
});

describe('which budget memory is past', () => {
  it('When Buffers (uploads) and the old space together pass the share of the old space limit, then it is short, though the heap alone is not', () => {
    expect(memoryShortage(memoryReading({ oldGeneration: 50, external: 30 }), 85)).toBeUndefined();
    expect(memoryShortage(memoryReading({ oldGeneration: 50, external: 36 }), 85)).toBe('heap and buffers');
  });

  it('When RSS passes the share of a container limit, then it is short; without a container limit RSS alone never is', () => {
    expect(memoryShortage(memoryReading({ rss: 10_000, processLimit: undefined }), 85)).toBeUndefined();
    expect(memoryShortage(memoryReading({ rss: 800, processLimit: 1000 }), 85)).toBeUndefined();
    expect(memoryShortage(memoryReading({ rss: 900, processLimit: 1000 }), 85)).toBe('container');
  });

  it.each([
    ['uploads held as Buffers', { oldGeneration: 20, external: 70 }],
    ['RSS near the container limit', { rss: 950, processLimit: 1000 }],
  ])('When %s pass the budget, then creating a workspace is refused for memory, and allowed again once they are freed', async (_, short) => {
    const reading = memoryReading();
    const world = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: defaultConfig.seed });
    const worlds = new Worlds(world, { heapBudgetPercent: 85, memory: () => reading });
    worlds.createWorkspace();
    Object.assign(reading, short);
    expect(() => worlds.createWorkspace()).toThrow(expect.objectContaining({ reason: 'memory', retryAfterSeconds: 60 }));
    Object.assign(reading, memoryReading());
    worlds.createWorkspace();
    expect(worlds.workspaceCount).toBe(2);
    await worlds.close();
  });
});
