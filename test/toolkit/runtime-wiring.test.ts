// The runtime is given its contract and owns what a sandbox keeps for all its worlds (the seeded bases, the supplier
// catalogues): two sandboxes in one process share none of it, and close() lets it go.
import { dump } from 'js-yaml';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { defaultConfig, type Config } from '../../src/config.js';
import { loadContract, type ContractDocument } from '../../src/contract/document/load-contract.js';
import { createRuntime } from '../../src/runtime.js';
import { SeededBases } from '../../src/world.js';
import { Worlds } from '../../src/worlds.js';
import { demo } from '../helpers/app.js';
import { freshWorld } from '../helpers/test-world.js';
import { worldModel } from '../../src/areas/world-model.js';

const config: Config = { ...defaultConfig, store: 'memory', logLevel: 'silent' };
const contract = loadContract().doc;

/** A sandbox of its own: a registry that owns its seeded bases, and a runtime over the given contract. */
function sandbox(doc: ContractDocument = contract) {
  const worlds = new Worlds(freshWorld(config.seed));
  const runtime = createRuntime({ worlds, config, contract: { text: dump(doc), doc }, log: () => {} });
  return { worlds, runtime, app: () => createApp(runtime) };
}

/** A copy of the contract without one operation. */
function withoutOperation(path: string, method: string): ContractDocument {
  const doc = structuredClone(contract);
  delete doc.paths[path]![method];
  return doc;
}

describe('The contract a runtime is given', () => {
  it('When the contract lacks an operation the handlers serve, then the app refuses to start and names the handler', () => {
    const { app } = sandbox(withoutOperation('/2024-09/users/current', 'get'));
    expect(app).toThrow(/handlers without an operation: getCurrentUser/);
  });

  it('When another contract is given, then the app serves that one as its documentation', async () => {
    const doc = structuredClone(contract);
    doc.info = { ...doc.info, title: 'Another contract' };
    const res = await request(sandbox(doc).app()).get('/openapi.json').expect(200);
    expect(res.body.info.title).toBe('Another contract');
    expect(contract.info.title).not.toBe('Another contract');
  });
});

describe('What a runtime owns', () => {
  it('When two sandboxes create workspaces, then each seeds a base of its own and they share none', () => {
    const a = sandbox();
    const b = sandbox();
    expect(a.worlds.seeded).not.toBe(b.worlds.seeded);
    a.worlds.createWorkspace();
    expect(a.worlds.seeded.seeds()).toEqual([config.seed]);
    expect(b.worlds.seeded.seeds()).toEqual([]);
    b.worlds.createWorkspace();
    expect(a.worlds.seeded.of(config.seed)).not.toBe(b.worlds.seeded.of(config.seed));
  });

  it('When one sandbox lists scraping attempts, then only its own catalogues keep the supplier', async () => {
    const a = sandbox();
    const b = sandbox();
    expect(a.runtime.catalogues).not.toBe(b.runtime.catalogues);
    await request(a.app()).get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`).set('Authorization', `Bearer ${demo.owner.token}`).expect(200);
    expect(a.runtime.catalogues.size.catalogues).toBeGreaterThan(0);
    expect(a.runtime.catalogues.size.counts).toBeGreaterThan(0);
    expect(b.runtime.catalogues.size).toEqual({ catalogues: 0, found: 0, counts: 0 });
  });

  it('When a runtime closes, then its seeded bases and supplier catalogues are emptied', async () => {
    const { worlds, runtime, app } = sandbox();
    const ws = worlds.createWorkspace();
    await request(app()).get(`/2024-09/suppliers/${DEMO_SUPPLIER_ID}/scraping-attempts`).set('Authorization', `Bearer ${demo.owner.token}`).expect(200);
    expect(worlds.seeded.seeds()).toEqual([config.seed]);
    expect(runtime.catalogues.size.catalogues).toBeGreaterThan(0);
    await runtime.close();
    expect(worlds.seeded.seeds()).toEqual([]);
    expect(runtime.catalogues.size).toEqual({ catalogues: 0, found: 0, counts: 0 });
    expect(worlds.workspace(ws.id)).toBeUndefined();
  });

  it('When a registry is given the bases it uses, then closing it leaves them to their owner', async () => {
    const bases = new SeededBases(worldModel);
    const worlds = new Worlds(freshWorld(config.seed), { seeded: bases });
    worlds.createWorkspace();
    await worlds.close();
    expect(bases.seeds()).toEqual([config.seed]);
  });
});
