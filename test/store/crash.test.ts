import { describe, expect, it } from 'vitest';
import { JournalPersistence } from '../../src/store/persistence-journal.js';
import { lines, spawnChild, tempDir } from './helpers.js';

/**
 * The durability promise: a commit that resolved survives kill -9. The child prints each acknowledged id; we kill
 * it mid-burst (small compaction thresholds make the kill land during compactions too) and load the file.
 */
describe('crash safety', () => {
  it.each([
    { round: 1, acks: 300, initial: 1000, compactBytes: 64 * 1024 },
    { round: 2, acks: 1500, initial: 2000, compactBytes: 256 * 1024 },
    { round: 3, acks: 700, initial: 100, compactBytes: 8 * 1024 },
  ])(
    'When the writer is killed with SIGKILL mid-burst (round $round), then every acknowledged create and update is there',
    async ({ acks, initial, compactBytes }) => {
      const { file, cleanup } = tempDir();
      try {
        const child = spawnChild('crash-writer.ts', [file, String(initial), String(compactBytes)]);
        const out = lines(child);
        await out.until((l) => l.startsWith('count ') && Number(l.slice(6)) >= acks);
        child.kill('SIGKILL');
        await out.exited;

        const acknowledged = out.all.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4));
        const maxCount = Math.max(...out.all.filter((l) => l.startsWith('count ')).map((l) => Number(l.slice(6))));
        expect(acknowledged.length).toBeGreaterThanOrEqual(acks);

        const p = JournalPersistence.open(file); // the dead child's lock is taken over
        const loaded = await p.load();
        await p.close();
        const ids = new Set((loaded!.collections.products as { id: string }[]).map((r) => r.id));
        expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
        expect(ids.size).toBeGreaterThanOrEqual(initial + acknowledged.length);
        // Updates of one record: the loaded value is at least the last one acknowledged (never an older one).
        expect((loaded!.collections.counters as { n: number }[])[0].n).toBeGreaterThanOrEqual(maxCount);
        // The loaded state is internally consistent: products beyond the seed equal the counter's commits.
        expect(ids.size - initial).toBe((loaded!.collections.counters as { n: number }[])[0].n);
      } finally {
        cleanup();
      }
    },
  );
});
