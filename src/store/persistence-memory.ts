import type { Change, Persistence, Snapshot } from './persistence.js';

/** A world that lives only in memory (tests, workspaces, `--in-memory`): nothing to load, nothing to write. */
export class MemoryPersistence implements Persistence {
  readonly kind = 'memory' as const;
  async load(): Promise<undefined> {
    return undefined;
  }
  async commit(_changes: Change[], _snapshot: () => Snapshot): Promise<void> {}
  async replaceAll(_snapshot: Snapshot): Promise<void> {}
  async close(): Promise<void> {}
}
