import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { createRuntime } from '../../src/runtime.js';
import { MemoryPersistence } from '../../src/store/store.js';
import { openWorld } from '../../src/world.js';
import { Worlds } from '../../src/worlds.js';
import { worldModel } from '../../src/areas/world-model.js';

async function observedWorlds() {
  const clock = { ms: 0 };
  const main = await openWorld({ id: 'default', model: worldModel, persistence: new MemoryPersistence(), seed: defaultConfig.seed });
  const worlds = new Worlds(main, { idleTtlMs: 1000, now: () => clock.ms });
  const { observations } = createRuntime({ worlds, config: { ...defaultConfig, store: 'memory', logLevel: 'silent' } });
  const answered = (workspace: string) => {
    observations.journal.record({ workspace, method: 'GET', path: '/2024-09/merchants', operationId: 'listMerchants', status: 200, durationMs: 1 });
    observations.coverageOf(workspace)!.record('listMerchants', 200);
  };
  const answeredStatuses = (workspace: string) =>
    observations
      .coverageOf(workspace)
      ?.report()
      .operations.find((o) => o.operation_id === 'listMerchants')?.answered;
  return { worlds, observations, clock, answered, answeredStatuses };
}

describe('the journal and coverage beside the registry of worlds', () => {
  it('When a workspace is deleted, then its journal entries and coverage go with it and the default world keeps its own', async () => {
    const { worlds, observations, answered, answeredStatuses } = await observedWorlds();
    const id = worlds.createWorkspace().world.id;
    answered(id);
    answered('default');
    worlds.deleteWorkspace(id);
    expect(observations.journal.list({ workspace: id })).toEqual([]);
    expect(observations.coverageOf(id)).toBeUndefined();
    expect(observations.journal.list({ workspace: 'default' })).toHaveLength(1);
    expect(answeredStatuses('default')).toEqual(['200']);
    await worlds.close();
  });

  it('When a sweep finds several workspaces expired, then the entries of each go, and a workspace used since keeps its own', async () => {
    const { worlds, observations, clock, answered } = await observedWorlds();
    const expired = [worlds.createWorkspace().world.id, worlds.createWorkspace().world.id];
    const used = worlds.createWorkspace().world.id;
    for (const id of [...expired, used]) answered(id);
    clock.ms = 600;
    worlds.workspace(used);
    clock.ms = 1000;
    worlds.sweep();
    for (const id of expired) {
      expect(observations.journal.list({ workspace: id })).toEqual([]);
      expect(observations.coverageOf(id)).toBeUndefined();
    }
    expect(observations.journal.list({ workspace: used })).toHaveLength(1);
    expect(worlds.workspaceCount).toBe(1);
    await worlds.close();
  });

  it('When a world is reset, then its journal entries and coverage are cleared but it still has coverage', async () => {
    const { worlds, observations, answered, answeredStatuses } = await observedWorlds();
    answered('default');
    await worlds.reset(worlds.defaultWorld);
    expect(observations.journal.list()).toEqual([]);
    expect(answeredStatuses('default')).toEqual([]);
    await worlds.close();
  });
});
