import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { listOperations } from '../../src/contract/document/load-contract.js';
import { createRuntime } from '../../src/runtime.js';
import { Worlds, worldsOptions } from '../../src/worlds.js';
import { freshWorld } from '../helpers/test-world.js';

describe('validator warm-up', () => {
  it('When the app warms up, then every operation is walked, most checks compile, and no world changes', { timeout: 300_000 }, async () => {
    const config = { ...defaultConfig, store: 'memory' as const, logLevel: 'silent' as const };
    const world = freshWorld(config.seed);
    const worlds = new Worlds(world, worldsOptions(config));
    const runtime = createRuntime({ worlds, config, log: () => {} });
    const app = createApp(runtime);
    const version = world.store.version;
    const result = await app.warmUp().done;
    expect(result.operations).toBe(listOperations(runtime.contract).length);
    expect(result.requestsChecked).toBeGreaterThan(result.operations / 2);
    expect(result.answersChecked).toBeGreaterThan(result.operations / 2);
    expect(world.store.version).toBe(version);
  });
});
