import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { defaultConfig } from '../../src/config.js';
import { listOperations, type ContractDocument } from '../../src/contract/document/load-contract.js';
import { componentsOf } from '../../src/pipeline/validator-warm-up.js';
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

describe('The components a check uses, in the order the warm-up compiles them', () => {
  const doc = {
    openapi: '3.1.0',
    info: { title: 'order', version: '1' },
    paths: {},
    components: {
      schemas: {
        List: { type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Item' } } } },
        Item: { type: 'object', properties: { price: { $ref: '#/components/schemas/Money' }, parent: { $ref: '#/components/schemas/Item' } } },
        Money: { type: 'object', properties: { amount: { type: 'number' } } },
      },
    },
  } as unknown as ContractDocument;

  it('When a schema refers to components that refer to others (and to themselves), then each comes after those it refers to, once', () => {
    expect(componentsOf(doc, { $ref: '#/components/schemas/List' })).toEqual(['Money', 'Item', 'List']);
    expect(componentsOf(doc, { oneOf: [{ $ref: '#/components/schemas/Money' }, { type: 'string' }] })).toEqual(['Money']);
    expect(componentsOf(doc, { $ref: '#/components/schemas/Unknown' })).toEqual([]);
  });
});
