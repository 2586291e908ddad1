import { resolve } from 'node:path';
import type { Config } from '../config.js';
import { MemoryPersistence } from './persistence-memory.js';
import { WholeFilePersistence } from './persistence-whole-file.js';
import type { Persistence } from './persistence.js';

/** The persistence a configuration asks for: the one place that picks the storage strategy. */
export function openPersistence(config: Pick<Config, 'store' | 'dataFile'>): Persistence {
  return config.store === 'memory' ? new MemoryPersistence() : new WholeFilePersistence(resolve(config.dataFile));
}
