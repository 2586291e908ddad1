import { existsSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { listAll, OWNER, startServer, stopServer, tempStore, killStragglers, PROCESS_TEST_TIMEOUT } from './server-process.js';

/**
 * The durability promise over HTTP: an answered 201 survives kill -9 of the server process. A burst of creates runs
 * at 16 in flight; the process is killed once enough have been answered, with more still in flight.
 */
afterEach(killStragglers);

describe('a real server killed mid-burst', { timeout: PROCESS_TEST_TIMEOUT }, () => {
  it('When the server is killed with SIGKILL during a burst of creates, then every create answered 201 is there after a restart', async () => {
    const { file, cleanup } = tempStore();
    try {
      const first = await startServer(file);
      const acknowledged: string[] = [];
      let stop = false;
      let sent = 0;
      const worker = async () => {
        while (!stop) {
          const name = `Crash Test ${sent++}`;
          try {
            const res = await fetch(`${first.url}/2024-09/merchants`, {
              method: 'POST',
              headers: { ...OWNER, 'Content-Type': 'application/json' },
              body: JSON.stringify({ name }),
            });
            if (res.status === 201) acknowledged.push(((await res.json()) as { data: { id: string } }).data.id);
          } catch {
            return; // the connection died with the process: this create was never acknowledged
          }
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      while (acknowledged.length < 150) await new Promise((r) => setTimeout(r, 5));
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);
      expect(await first.exited).toBeNull();
      expect(sent).toBeGreaterThan(acknowledged.length); // some were in flight when it died
      expect(existsSync(`${file}.lock`)).toBe(true); // a stale lock: the restart must take it over

      const second = await startServer(file);
      try {
        const merchants = await listAll(second.url, '/2024-09/merchants');
        const ids = new Set(merchants.map((m) => m.id));
        expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
        // Each create is one commit of two records: no merchant came back without its owner's membership.
        expect(merchants.length).toBeGreaterThanOrEqual(acknowledged.length);
        expect(readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(second.pid));
      } finally {
        expect(await stopServer(second)).toBe(0);
      }
    } finally {
      cleanup();
    }
  });
});
