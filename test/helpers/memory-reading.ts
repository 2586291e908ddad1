import type { MemoryReading } from '../../src/memory-budget.js';

/** A memory reading for an injected gauge: a 100-byte old space, nothing held, no container limit, unless overridden. */
export const memoryReading = (overrides: Partial<MemoryReading> = {}): MemoryReading => ({
  oldGeneration: 0,
  oldGenerationLimit: 100,
  external: 0,
  rss: 0,
  processLimit: undefined,
  ...overrides,
});
