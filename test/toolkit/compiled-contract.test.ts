import { Ajv } from 'ajv';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.js';
import { compileContract } from '../../src/compiled-contract.js';
import { createRuntime } from '../../src/runtime.js';
import { contract, testApp } from '../helpers/app.js';

// What the validator adds to Ajv is the compile of an operation's check (src/compiled-contract.ts): counting the
// schemas added tells a check compiled for this app from one reused.
const AjvCore = Object.getPrototypeOf(Ajv.prototype) as { addSchema: (...args: unknown[]) => unknown };

async function schemasAddedBy(send: () => Promise<unknown>): Promise<number> {
  const added = vi.spyOn(AjvCore, 'addSchema');
  try {
    await send();
    return added.mock.calls.length;
  } finally {
    added.mockRestore();
  }
}

describe('the contract compiled once per process', () => {
  afterEach(() => vi.restoreAllMocks());

  it('When a second app is built over the same compiled contract, then its first request of an operation compiles no validator check', async () => {
    // Compiled for this test alone: the helper's contract is shared by the files a worker runs, which may have
    // compiled this operation's checks already.
    const own = compileContract({ text: contract.text, doc: contract.doc });
    const first = await testApp({}, { contract: own });
    const firstCompiles = await schemasAddedBy(() => request(first.app).get('/2024-09/merchants').set(first.auth('owner')).expect(200));
    expect(firstCompiles).toBeGreaterThan(0);

    const second = await testApp({ seed: 7 }, { contract: own });
    expect(first.runtime.compiled).toBe(own);
    expect(second.runtime.compiled).toBe(first.runtime.compiled);
    expect(await schemasAddedBy(() => request(second.app).get('/2024-09/merchants').set(second.auth('owner')).expect(200))).toBe(0);
  });

  it('When an app is built over a contract compiled apart, then it compiles its own checks (the count above can fail)', async () => {
    const shared = await testApp();
    await request(shared.app).get('/2024-09/merchants').set(shared.auth('owner')).expect(200);
    const apart = compileContract({ text: contract.text, doc: contract.doc });
    expect(apart.validator).not.toBe(contract.validator);
    const runtime = createRuntime({ worlds: shared.worlds, config: shared.runtime.config, contract: apart, log: () => {} });
    const app = createApp(runtime);
    expect(await schemasAddedBy(() => request(app).get('/2024-09/merchants').set(shared.auth('owner')).expect(200))).toBeGreaterThan(0);
  });

  it('When a runtime is given a contract only read, then it compiles it for itself, with the same facts', async () => {
    const { runtime } = await testApp();
    const own = createRuntime({ worlds: runtime.worlds, config: runtime.config, contract: { text: contract.text, doc: contract.doc }, log: () => {} });
    expect(own.compiled).not.toBe(contract);
    expect([...own.operations.keys()]).toEqual([...contract.operations.keys()]);
  });
});
