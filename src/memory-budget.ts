import { totalmem } from 'node:os';
import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

/** What the process holds and the limits it must stay under, in bytes. */
export interface MemoryReading {
  /** Bytes in V8's old generation (every space but the young generation's): what the old-space limit bounds. */
  oldGeneration: number;
  /** The most the old generation may hold before V8 stops the process (--max-old-space-size or V8's default). */
  oldGenerationLimit: number;
  /** Bytes JavaScript holds outside the heap: Buffers (uploads) and array buffers (`memoryUsage().external`). */
  external: number;
  /**
   * Resident set size: everything the process holds, as the kernel (and a container's limit) counts it. Read only
   * when there is a container limit to hold it against (reading it asks the kernel); 0 otherwise.
   */
  rss: number;
  /** The container's (cgroup) memory limit; undefined when the process runs unconstrained. */
  processLimit: number | undefined;
}

/** Reads the process's memory (tests inject readings instead, so they can drive the guard without allocating). */
export type MemoryGauge = () => MemoryReading;

const MiB = 2 ** 20;

/**
 * The young generation's reserve that V8 adds to --max-old-space-size in `heap_size_limit`: three semi-spaces of
 * V8's largest semi-space size, which changed between releases (16 MiB on V8 11 and 12, Node 20 and 22; 64 MiB on
 * V8 13, Node 24; 32 MiB on V8 14, Node 26). Only needed when no --max-old-space-size says the old space outright.
 */
function youngGenerationReserve(v8Version: string, semiSpaceMiB: number | undefined): number {
  if (semiSpaceMiB !== undefined) return 3 * semiSpaceMiB * MiB;
  const major = Number(v8Version.split('.')[0]);
  const semiSpace = major >= 14 ? 32 : major === 13 ? 64 : 16;
  return 3 * semiSpace * MiB;
}

/** The value of the last `--name=N` (or `--name N`; dashes or underscores) among V8 flags, in MiB. */
function lastFlag(flags: readonly string[], name: string): number | undefined {
  const pattern = new RegExp(`^--${name.replaceAll('-', '[-_]')}(?:=(\\d+))?$`);
  let value: number | undefined;
  flags.forEach((flag, i) => {
    const match = pattern.exec(flag);
    if (!match) return;
    const raw = match[1] ?? flags[i + 1];
    if (raw !== undefined && /^\d+$/.test(raw)) value = Number(raw);
  });
  return value;
}

/**
 * The old generation's limit. V8's `heap_size_limit` is not the old space plus a constant (for
 * --max-old-space-size=96 it reads 144 MiB on Node 20 and 22, 288 on 24, 192 on 26), so the flag, when given, is
 * read where Node reads it: NODE_OPTIONS first, then the command line, the last one winning. Without it, the
 * young generation's reserve for this V8 is taken off `heap_size_limit`.
 */
export function oldGenerationLimit(heapSizeLimit: number, v8Version: string, flags: readonly string[]): number {
  const oldSpace = lastFlag(flags, 'max-old-space-size');
  if (oldSpace !== undefined && oldSpace > 0) return Math.min(oldSpace * MiB, heapSizeLimit);
  const reserve = youngGenerationReserve(v8Version, lastFlag(flags, 'max-semi-space-size'));
  return Math.max(heapSizeLimit / 2, heapSizeLimit - reserve);
}

/**
 * The container's memory limit, or undefined. `process.constrainedMemory()` reads the cgroup (v1 or v2); without a
 * limit it answers 0, undefined or 2^64 - 1 depending on the Node release, all at least the machine's memory.
 */
export function containerLimit(constrained: number | undefined, machineMemory: number): number | undefined {
  return constrained !== undefined && constrained > 0 && constrained < machineMemory ? constrained : undefined;
}

// The young generation's spaces: short-lived garbage the next scavenge frees, not what fills the old space.
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** NODE_OPTIONS split as Node splits it (on whitespace; quoted values are not used by memory flags). */
const nodeOptionFlags = (raw: string | undefined): string[] => (raw ?? '').split(/\s+/).filter((flag) => flag !== '');

/** Reads this process: V8's spaces, Node's memoryUsage and the cgroup limit. */
export function processMemoryGauge(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): MemoryGauge {
  // The flags cannot change once the process runs; the limits are read once.
  const flags = [...nodeOptionFlags(env.NODE_OPTIONS), ...execArgv];
  const limit = oldGenerationLimit(getHeapStatistics().heap_size_limit, process.versions.v8, flags);
  const processLimit = containerLimit(process.constrainedMemory?.(), totalmem());
  return () => {
    let oldGeneration = 0;
    for (const space of getHeapSpaceStatistics()) if (!YOUNG_SPACES.has(space.space_name)) oldGeneration += space.space_used_size;
    // The same figure as memoryUsage().external, without memoryUsage()'s read of the RSS.
    const external = getHeapStatistics().external_memory;
    const rss = processLimit === undefined ? 0 : process.memoryUsage.rss();
    return { oldGeneration, oldGenerationLimit: limit, external, rss, processLimit };
  };
}

/**
 * Which budget the process is past, if any, at `percent` of each limit. The old generation and every Buffer
 * together against the old space's limit: the heap's size is what the operator gave the process, and uploads
 * (Buffers, outside the heap) take memory all the same. RSS against a container's limit, where the kernel kills
 * the process without a word. Creating more worlds is refused from there on, so a flood of creations or uploads ends
 * in a 503 long before the process (with every world in it) dies.
 */
export function memoryShortage(reading: MemoryReading, percent: number): 'heap and buffers' | 'container' | undefined {
  const share = percent / 100;
  if (reading.oldGeneration + reading.external > reading.oldGenerationLimit * share) return 'heap and buffers';
  if (reading.processLimit !== undefined && reading.rss > reading.processLimit * share) return 'container';
  return undefined;
}
