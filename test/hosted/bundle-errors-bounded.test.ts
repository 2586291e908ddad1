// A bundle broken in every item (issue 31, finding 5, one step off): the contract validator collected every error of
// every item in one pass (4,000 empty journal entries, 0.3 MiB, held the loop 1.7 s; an 8 MiB body of them, minutes).
// The validator now checks the bundle's frame, and its load checks the items part by part, refusing at the first
// MAX_PROBLEMS: such a bundle is refused 422 without a long turn of the loop.
import type { Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_PROBLEMS } from '../../src/sandbox/check-bundle.js';
import { emptyBundle } from '../bundle/hostile-bundles.js';
import { hostedApp } from './support.js';
import { post, whileProbing } from './loop-probe.js';

/** CPU time one turn of the loop may take (test/hosted/event-loop-free.test.ts says why). */
const CPU_HOLD_MS = 75;

describe('a bundle broken in every item (hosted)', () => {
  it('When every journal entry and record of a bundle breaks its schema, then 422 names at most MAX_PROBLEMS of them and no turn of the loop takes long', async () => {
    const t = await hostedApp({ workspaceCreatePerMinute: 100 });
    const url = `http://127.0.0.1:${((t.app as Server).address() as { port: number }).port}`;
    const valid = await emptyBundle(t.app);
    const broken = [
      { ...valid, journal: Array.from({ length: 1000 }, () => ({})) },
      { ...valid, journal: Array.from({ length: 4000 }, () => ({})) },
      { ...valid, changes: { products: { added: Array.from({ length: 20_000 }, () => ({ id: 1 })), changed: [], deleted: [] } } },
    ];
    for (const bundle of broken) {
      const body = Buffer.from(JSON.stringify(bundle));
      let status = 0;
      const held = await whileProbing(url, async () => {
        status = await post(url, '/_sandbox/workspaces', body);
      });
      expect(status).toBe(422);
      expect(held.cpuMax, `${body.length} bytes: ${held.cpuMax.toFixed(1)} ms of CPU in one turn`).toBeLessThanOrEqual(CPU_HOLD_MS);
    }
    const res = await fetch(`${url}/_sandbox/workspaces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(broken[0]) });
    const answer = (await res.json()) as { errors: Record<string, string[]> };
    expect(Object.values(answer.errors).flat().length).toBeLessThanOrEqual(MAX_PROBLEMS);
  }, 120_000);
});
