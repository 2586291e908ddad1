// A flood of ordinary writes into one live workspace, within its record quota: supplier items whose description is
// 65,535 two-byte characters (130 KiB of heap each). With a 256 MiB heap and the default HEAP_BUDGET_PERCENT, every
// create must end in 201 or a 503 with Retry-After, and the process must live. V8 stops a process whose old
// generation stays at 80 % of its limit through four mark-compacts that free little ("Ineffective mark-compacts near
// heap limit"), which a flood brings about: a budget at 85 % was never reached, and the process died at 81 %.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_SUPPLIER_ID } from '../../src/areas/sourcing/fixture-ids.js';
import { killStragglers, MERCHANT, PROCESS_TEST_TIMEOUT, startServer, stopServer, tempStore } from '../durability/server-process.js';
import { hostedEnv } from './hosted-process.js';

afterEach(() => killStragglers());

/** Creates sent at once, as a client's pool of connections sends them. */
const AT_ONCE = 8;
/** 3,000 of them hold about 390 MB: past a 256 MiB heap whatever the budget. */
const CREATES = 3_000;

describe('a flood of writes into a live workspace', () => {
  it(
    'When supplier items of 130 KiB each are created eight at a time in a hosted sandbox with a 256 MiB heap, then each answers 201 or 503 with Retry-After and the process lives',
    async () => {
      const store = tempStore();
      const server = await startServer(store.file, hostedEnv(256));
      const alive = () => server.child.exitCode === null && server.child.signalCode === null;
      try {
        const ws = (await (await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' })).json()) as { data: { tokens: { owner: string } } };
        const headers = { Authorization: `Bearer ${ws.data.tokens.owner}`, 'Content-Type': 'application/json' };
        const description = 'Ā'.repeat(65_535);
        const statuses = new Map<number, number>();
        let retryAfterMissing = 0;
        let next = 0;
        await Promise.all(
          Array.from({ length: AT_ONCE }, async () => {
            while (next < CREATES && alive()) {
              const sku = `FLOOD-${next++}`;
              const body = JSON.stringify({
                merchant_id: MERCHANT,
                supplier_id: DEMO_SUPPLIER_ID,
                sku,
                description,
                costs: [{ minimum_order_quantity: 1, cost: { value: 1, currency: 'USD' } }],
              });
              const res = await fetch(`${server.url}/2024-09/supplier-items`, { method: 'POST', headers, body }).catch(() => undefined);
              await res?.arrayBuffer().catch(() => undefined);
              const status = res?.status ?? 0;
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              if (status === 503 && !(Number(res!.headers.get('retry-after')) > 0)) retryAfterMissing++;
            }
          }),
        );
        console.info(`write-flood: statuses ${JSON.stringify(Object.fromEntries(statuses))}; alive ${alive()}`);

        expect(alive(), server.stderr().slice(0, 400)).toBe(true);
        expect([...statuses.keys()].filter((s) => s !== 201 && s !== 503)).toEqual([]);
        expect(statuses.get(503)).toBeGreaterThan(0);
        expect(retryAfterMissing).toBe(0);
        expect((await fetch(`${server.url}/_sandbox/health`)).status).toBe(200);
        expect(await stopServer(server)).toBe(0);
      } finally {
        store.cleanup();
      }
    },
    PROCESS_TEST_TIMEOUT,
  );
});
