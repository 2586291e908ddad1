// The background warm-up of the validators (src/pipeline/validator-warm-up.ts) runs while the server already answers: a call
// that arrives meanwhile gets the same answer as on a server without a warm-up, and the warm-up itself leaves no
// trace in the world, the journal or the coverage.
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { contractOperations, jsonBodyOf, paramsOf } from '../helpers/contract-requests.js';

const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

/** The validator's middleware array, with what its patch adds (patches/README.md). */
const contractValidatorOf = (sandbox: RunningSandbox) =>
  sandbox.runtime.compiled.validator as { compileComponent?: (side: 'request' | 'response', name: string) => boolean };

async function start(warmUp: boolean): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ logLevel: 'silent', warmUp });
  running.push(sandbox);
  return sandbox;
}

// Reads first, then writes, deletes last: no call finds what an earlier one removed.
const ORDER = ['GET', 'PUT', 'PATCH', 'POST', 'DELETE'];
/** The versioned API's operations (the control plane resets and creates worlds), each as its example request. */
const calls = contractOperations
  .filter((op) => !op.tags.includes('Sandbox'))
  .map((op) => {
    let path = op.path;
    const query = new URLSearchParams();
    for (const param of paramsOf(op)) {
      if (param.example === undefined) continue;
      if (param.in === 'path') path = path.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
      else if (param.in === 'query' && param.required) query.set(param.name, String(param.example));
    }
    const body = jsonBodyOf(op)?.example;
    return { operationId: op.operationId, method: op.method, url: query.size ? `${path}?${query}` : path, body };
  })
  .sort((a, b) => ORDER.indexOf(a.method) - ORDER.indexOf(b.method));

/** An answer as compared: its status and its body with what differs from server to server (new ids, times, random states, its origin) masked. */
async function answer(sandbox: RunningSandbox, call: (typeof calls)[number]): Promise<{ operationId: string; status: number; body: unknown }> {
  const res = await fetch(sandbox.url + call.url, {
    method: call.method,
    headers: { Authorization: `Bearer ${sandbox.tokens.owner}`, ...(call.body !== undefined && { 'Content-Type': 'application/json' }) },
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  const text = await res.text();
  const masked = text
    .replaceAll(sandbox.url, '<origin>')
    // A consent link's random state.
    .replace(/\bst_[\w-]+/g, '<state>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
  return { operationId: call.operationId, status: res.status, body: masked ? JSON.parse(masked) : undefined };
}

describe('The validators warm up in the background without changing any answer', () => {
  it('When every operation is called while the warm-up is still running, then each answers as on a server without a warm-up', async () => {
    const warming = await start(true);
    let warmedUp = false;
    void warming.warmedUp.then(() => (warmedUp = true));
    const cold = await start(false);

    const during: Awaited<ReturnType<typeof answer>>[] = [];
    let answeredWhileWarming = 0;
    for (const call of calls) {
      during.push(await answer(warming, call));
      if (!warmedUp) answeredWhileWarming++;
    }
    const without: Awaited<ReturnType<typeof answer>>[] = [];
    for (const call of calls) without.push(await answer(cold, call));

    // The race is real: calls were answered before the warm-up was over.
    expect(answeredWhileWarming).toBeGreaterThan(0);
    expect(during).toEqual(without);
    expect(during.filter((a) => a.status >= 500)).toEqual([]);
    await warming.warmedUp;
    expect(warmedUp).toBe(true);
  }, 120_000);

  it('When the warm-up is over, then the world, the journal and the coverage hold nothing of it', async () => {
    const warmed = await start(true);
    const cold = await start(false);
    await warmed.warmedUp;
    const seenBy = async (sandbox: RunningSandbox) => {
      const headers = { Authorization: `Bearer ${sandbox.tokens.owner}` };
      const journal = await (await fetch(`${sandbox.url}/_sandbox/requests`, { headers })).json();
      const coverage = await (await fetch(`${sandbox.url}/_sandbox/coverage`, { headers })).json();
      return { version: sandbox.worlds.defaultWorld.store.version, journal, coverage };
    };
    const [a, b] = [await seenBy(warmed), await seenBy(cold)];
    expect(JSON.parse(JSON.stringify(a).replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>'))).toEqual(
      JSON.parse(JSON.stringify(b).replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')),
    );
  }, 120_000);

  it('When the warm-up is over, then no request pays for it: the server listens for requests as one without a warm-up does', async () => {
    const warmed = await start(true);
    const cold = await start(false);
    await warmed.warmedUp;
    expect(warmed.server.listenerCount('request')).toBe(cold.server.listenerCount('request'));
  }, 120_000);

  it('When the sandbox has just started, then the set-up its checks share is made before any request, and nothing is journaled', async () => {
    const warming = await start(true);
    const cold = await start(false);
    const [component] = Object.keys((warming.runtime.contract.components as { schemas: object }).schemas);
    // The validator answers false until it has made a side's Ajv instance (src/pipeline/contract-validator.ts).
    const made = (sandbox: RunningSandbox) =>
      (['request', 'response'] as const).map((side) => contractValidatorOf(sandbox).compileComponent?.(side, component!) ?? false);
    expect(made(warming)).toEqual([true, true]);
    expect(made(cold)).toEqual([false, false]);
    const headers = { Authorization: `Bearer ${warming.tokens.owner}` };
    const journal = (await (await fetch(`${warming.url}/_sandbox/requests`, { headers })).json()) as { data: unknown[] };
    expect(journal.data).toEqual([]);
  });

  it('When every operation has been called once after the warm-up, then each answered as on a server without one', async () => {
    const warmed = await start(true);
    const cold = await start(false);
    await warmed.warmedUp;
    const after: Awaited<ReturnType<typeof answer>>[] = [];
    for (const call of calls) after.push(await answer(warmed, call));
    const without: Awaited<ReturnType<typeof answer>>[] = [];
    for (const call of calls) without.push(await answer(cold, call));
    expect(after).toEqual(without);
  }, 120_000);
});
