import { getHeapStatistics } from 'node:v8';

/** How full the heap is: bytes in use and the most V8 will allow before the process dies. */
export interface HeapReading {
  used: number;
  limit: number;
}

/** Reads the heap (tests inject a reading instead). */
export type HeapGauge = () => HeapReading;

// heap_size_limit also counts the young generation's reserve (three 16 MiB semi-spaces on 64-bit), which the old
// generation, where long-lived worlds end up, can never grow into: at --max-old-space-size=128 the limit reads 176.
const YOUNG_GENERATION_RESERVE = 48 * 2 ** 20;

export const v8Heap: HeapGauge = () => {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, limit: Math.max(stats.heap_size_limit / 2, stats.heap_size_limit - YOUNG_GENERATION_RESERVE) };
};

/**
 * True when the heap is past `percent` of its limit. Creating more worlds is refused from there on, so a flood of
 * creations ends in a 503 long before V8 runs out of heap and the process (with every world in it) dies.
 */
export function heapOverBudget(gauge: HeapGauge, percent: number): boolean {
  const { used, limit } = gauge();
  return used > (limit * percent) / 100;
}
