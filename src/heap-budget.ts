import { getHeapStatistics } from 'node:v8';

/** How full the heap is: bytes in use and the most V8 will allow before the process dies. */
export interface HeapReading {
  used: number;
  limit: number;
}

/** Reads the heap (tests inject a reading instead). */
export type HeapGauge = () => HeapReading;

export const v8Heap: HeapGauge = () => {
  const stats = getHeapStatistics();
  return { used: stats.used_heap_size, limit: stats.heap_size_limit };
};

/**
 * True when the heap is past `percent` of its limit. Creating more worlds is refused from there on, so a flood of
 * creations ends in a 503 long before V8 runs out of heap and the process (with every world in it) dies.
 */
export function heapOverBudget(gauge: HeapGauge, percent: number): boolean {
  const { used, limit } = gauge();
  return used > (limit * percent) / 100;
}
