import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { MemoryPersistence } from './store.js';
import { JournalPersistence } from './persistence-journal.js';
import type { Persistence } from './persistence.js';

/**
 * The persistence a configuration asks for: the one place that picks the storage strategy. A file store is a
 * snapshot plus an append-only journal, so a write costs the same at 100 records as at 100,000; opening it
 * claims the data file for this process (a second process is refused).
 */
export function openPersistence(config: Pick<Config, 'store' | 'dataFile'>): Persistence {
  return config.store === 'memory' ? new MemoryPersistence() : JournalPersistence.open(resolve(config.dataFile));
}
