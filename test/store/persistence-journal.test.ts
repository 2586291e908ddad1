import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { journalGenerations, journalPath } from '../../src/store/journal-files.js';
import { JournalPersistence } from '../../src/store/persistence-journal.js';
import { StoreFileError, type Change, type Snapshot } from '../../src/store/persistence.js';
import { aProduct, cleanupAfterEach, snapshotOf } from './helpers.js';

const { setup, defer } = cleanupAfterEach();

/** Opens a persistence that the test's cleanup closes (close is idempotent). */
function open(file: string, options: Parameters<typeof JournalPersistence.open>[1] = {}): JournalPersistence {
  const p = JournalPersistence.open(file, options);
  defer(() => p.close());
  return p;
}

/** A tiny in-memory world that commits like the store does: mutate (immutably), then commit with a snapshot callback. */
function world(p: JournalPersistence, initial: Snapshot) {
  const products = new Map((initial.collections.products as { id: string }[]).map((r) => [r.id, r]));
  const snapshot = (): Snapshot => ({ format: 1, seed: initial.seed, collections: { ...initial.collections, products: [...products.values()] } });
  return {
    snapshot,
    put(record: { id: string }) {
      products.set(record.id, record);
      return p.commit([{ c: 'products', op: 'put', id: record.id, rec: record }], snapshot);
    },
    del(id: string) {
      products.delete(id);
      return p.commit([{ c: 'products', op: 'del', id }], snapshot);
    },
  };
}

/** A closed store whose first journal generation holds two commits (products 1 and 2): what the damage tests start from. */
async function twoCommitsOnDisk(): Promise<{ file: string; path: string }> {
  const { file } = setup();
  const p = open(file);
  await p.replaceAll(snapshotOf([]));
  const w = world(p, snapshotOf([]));
  await w.put(aProduct(1));
  await w.put(aProduct(2));
  await p.close();
  return { file, path: journalPath(file, 1) };
}

/** What a refused promise rejected with. */
const refusal = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (e: unknown) => e,
  );

const ids = (s: Snapshot | undefined) => (s!.collections.products as { id: string }[]).map((r) => r.id);

describe('JournalPersistence', () => {
  it('When the data file does not exist, then load answers undefined and creates nothing but the lock', async () => {
    const { file } = setup();
    const p = open(file);
    expect(await p.load()).toBeUndefined();
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}.lock`)).toBe(true);
  });

  it('When commits were acknowledged, then a restart replays them in order over the snapshot', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([aProduct(1), aProduct(2)]));
    const w = world(p, snapshotOf([aProduct(1), aProduct(2)]));
    await Promise.all([w.put(aProduct(3)), w.put(aProduct(2, { name: 'renamed' })), w.del(aProduct(1).id), w.put(aProduct(4))]);
    await p.close();

    const loaded = await open(file).load();
    expect(ids(loaded)).toEqual([aProduct(2), aProduct(3), aProduct(4)].map((r) => r.id));
    expect((loaded!.collections.products as { name: string }[])[0].name).toBe('renamed');
    expect(loaded!.collections.users).toEqual([]);
    expect(loaded).toEqual(w.snapshot());
  });

  it('When a commit resolves, then its line is already in the journal file (no flush needed)', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([]));
    await world(p, snapshotOf([])).put(aProduct(9));
    expect(readFileSync(journalPath(file, 1), 'utf8')).toContain(aProduct(9).id);
  });

  it('When many commits arrive while a write is in flight, then they share one line each and all survive', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([]));
    const w = world(p, snapshotOf([]));
    await Promise.all(Array.from({ length: 200 }, (_, i) => w.put(aProduct(i))));
    const journal = readFileSync(journalPath(file, 1), 'utf8');
    expect(journal.split('\n').filter(Boolean)).toHaveLength(200);
    await p.close();
    expect(ids(await open(file).load())).toHaveLength(200);
  });

  it('When the last journal line is torn (crash mid-write), then load drops it, keeps the rest and appends cleanly after', async () => {
    const { file, path } = await twoCommitsOnDisk();
    truncateSync(path, statSync(path).size - 25);

    const q = open(file);
    const loaded = await q.load();
    expect(ids(loaded)).toEqual([aProduct(1).id]);
    const w2 = world(q, loaded!);
    await w2.put(aProduct(3));
    await q.close();
    expect(ids(await open(file).load())).toEqual([aProduct(1).id, aProduct(3).id]);
  });

  it('When a line in the middle of the journal is damaged, then load refuses with a StoreFileError naming the journal and --reset', async () => {
    const { file, path } = await twoCommitsOnDisk();
    writeFileSync(path, readFileSync(path, 'utf8').replace('SKU-1', 'SKU-X'));

    const error = await open(file)
      .load()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as StoreFileError).file).toBe(path);
    expect((error as Error).message).toMatch(/line 1 is damaged/);
    expect((error as Error).message).toMatch(/--reset.*RESET=1/);
  });

  it('When a journal line is missing from the sequence, then load refuses instead of replaying past the gap', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([]));
    const w = world(p, snapshotOf([]));
    for (let i = 1; i <= 3; i++) await w.put(aProduct(i));
    await p.close();
    const path = journalPath(file, 1);
    const [first, , third] = readFileSync(path, 'utf8').split('\n');
    writeFileSync(path, `${first}\n${third}\n`);

    await expect(open(file).load()).rejects.toThrow(/commit 2 is missing/);
  });

  it('When the data file holds the JSON null, then load refuses it as not a sandbox store instead of seeding over it', async () => {
    const { file } = setup();
    writeFileSync(file, 'null\n');
    const error = await refusal(open(file).load());
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(`The data file ${file} is not a sandbox store.`);
    expect(readFileSync(file, 'utf8')).toBe('null\n');
  });

  it('When the data file is a directory, then load refuses with a StoreFileError naming it, and does not offer --reset (which could not replace it)', async () => {
    const { file } = setup();
    mkdirSync(file);
    const error = await refusal(open(file).load());
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toMatch(new RegExp(`^The data file ${file} cannot be read \\(EISDIR`));
    expect((error as Error).message).not.toMatch(/--reset/);
  });

  it('When the seeded world is written over a data file that is a directory (--reset), then replaceAll refuses with a StoreFileError naming it', async () => {
    const { file } = setup();
    mkdirSync(file);
    const error = await refusal(open(file).replaceAll(snapshotOf([])));
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toMatch(new RegExp(`^The data file ${file} cannot be written \\(EISDIR`));
  });

  it('When the data file is not JSON, then load refuses with a message naming it and how to reset, and leaves it untouched', async () => {
    const { file } = setup();
    writeFileSync(file, '{"format": 1, "collections": {');
    const error = await open(file)
      .load()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(/--reset \(or RESET=1\)/);
    expect(readFileSync(file, 'utf8')).toBe('{"format": 1, "collections": {');
  });

  it('When a hand-edited data file holds something that is not a record (null, an id that is not a string), then load refuses naming where, and leaves it untouched', async () => {
    for (const [bad, where] of [
      [null, 'collections.products[1]'],
      [{ ...aProduct(2), id: 2 }, 'collections.products[1]'],
      [[aProduct(2)], 'collections.products[1]'],
    ] as const) {
      const { file } = setup();
      const text = JSON.stringify({ format: 1, seed: 7, collections: { users: [], products: [aProduct(1), bad] } });
      writeFileSync(file, text);
      const error = await refusal(open(file).load());
      expect(error).toBeInstanceOf(StoreFileError);
      expect((error as Error).message).toContain(`The data file ${file} is not a sandbox store (${where} is not a record with a string id).`);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });

  it('When the data file was written by a newer sandbox (a higher store format), then load refuses saying so, without offering --reset, and leaves it untouched', async () => {
    const { file } = setup();
    const text = JSON.stringify({ format: 2, seed: 7, collections: { users: [] } });
    writeFileSync(file, text);
    const error = await refusal(open(file).load());
    expect(error).toBeInstanceOf(StoreFileError);
    expect((error as Error).message).toContain(`The data file ${file} was written by a newer sandbox (store format 2; this one reads format 1).`);
    expect((error as Error).message).not.toMatch(/--reset/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('When the data file is JSON but not a sandbox store, then load refuses', async () => {
    const { file } = setup();
    writeFileSync(file, JSON.stringify({ products: [] }));
    await expect(open(file).load()).rejects.toThrow(/is not a sandbox store/);
  });

  it('When the data file is unreadable, then replaceAll (--reset) replaces it on purpose and drops old journals', async () => {
    const { file } = setup();
    writeFileSync(file, 'garbage');
    writeFileSync(journalPath(file, 4), 'garbage too\n');
    const p = open(file);
    await p.replaceAll(snapshotOf([aProduct(1)]));
    await world(p, snapshotOf([aProduct(1)])).put(aProduct(2));
    await p.close();
    expect(journalGenerations(file)).toEqual([5]);
    expect(ids(await open(file).load())).toEqual([aProduct(1).id, aProduct(2).id]);
  });

  it('When the journal outgrows the threshold, then the snapshot is rewritten in the background and old journals dropped', async () => {
    const { file } = setup();
    const p = open(file, { compactMinBytes: 4096, compactGrowth: 0, snapshotChunkBytes: 1024 });
    await p.replaceAll(snapshotOf([]));
    const w = world(p, snapshotOf([]));
    for (let i = 0; i < 60; i++) await w.put(aProduct(i));
    const mark = () => JSON.parse(readFileSync(file, 'utf8')).journal.generation as number;
    await vi.waitFor(() => expect(mark()).toBeGreaterThanOrEqual(3), { timeout: 5000 });
    await p.close();
    // Every compaction started a new generation and, once its snapshot was in place, deleted the ones it included.
    expect(journalGenerations(file).every((g) => g >= mark())).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8')).collections.products.length).toBeGreaterThan(0);
    expect(await open(file).load()).toEqual(w.snapshot());
  });

  it('When a compaction was interrupted before its snapshot was renamed, then both journal generations replay', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([]));
    const w = world(p, snapshotOf([]));
    await w.put(aProduct(1));
    await p.close();
    // What a crash mid-compaction leaves: the old snapshot (generation 1), its journal, the next generation's
    // journal already receiving commits, and a half-written temp snapshot.
    const changes: Change[] = [{ c: 'products', op: 'put', id: aProduct(2).id, rec: aProduct(2) }];
    const second = JSON.stringify({ seq: 2, changes });
    const { crc32 } = await import('node:zlib');
    appendFileSync(journalPath(file, 2), `${crc32(second).toString(16).padStart(8, '0')} ${second}\n`);
    writeFileSync(`${file.replace(/sandbox\.json$/, '.sandbox.json.tmp')}`, '{"format":1,"se');
    expect(ids(await open(file).load())).toEqual([aProduct(1).id, aProduct(2).id]);
  });

  it('When a compaction finished but the old journal was not deleted yet, then load ignores and removes it', async () => {
    const { file } = setup();
    const p = open(file, { compactMinBytes: 1, compactGrowth: 0 });
    await p.replaceAll(snapshotOf([]));
    const w = world(p, snapshotOf([]));
    await w.put(aProduct(1));
    await vi.waitFor(() => expect(JSON.parse(readFileSync(file, 'utf8')).journal.generation).toBe(2), { timeout: 5000 });
    await p.close();
    const mark = 2;
    writeFileSync(journalPath(file, mark - 1), 'stale but included in the snapshot\n');
    expect(ids(await open(file).load())).toEqual([aProduct(1).id]);
    expect(existsSync(journalPath(file, mark - 1))).toBe(false);
  });

  it("When the world's clock was moved, then a restart loads its offset from the journal, and from the snapshot once a compaction wrote it", async () => {
    const { file } = setup();
    const p = open(file, { compactMinBytes: 1, compactGrowth: 0 });
    await p.replaceAll(snapshotOf([]));
    await p.commitClock(86_400_000);
    await p.close();
    const reader = open(file);
    expect((await reader.load())?.clock).toEqual({ offset_ms: 86_400_000 });
    await reader.close();

    // A commit crosses the threshold: the compaction's snapshot holds the offset, and the journal that held it is gone.
    const q = open(file, { compactMinBytes: 1, compactGrowth: 0 });
    await world(q, (await q.load())!).put(aProduct(1));
    await vi.waitFor(() => expect(JSON.parse(readFileSync(file, 'utf8')).collections.products).toHaveLength(1), { timeout: 5000 });
    expect(JSON.parse(readFileSync(file, 'utf8')).clock).toEqual({ offset_ms: 86_400_000 });
    await q.close();
    expect((await open(file).load())?.clock).toEqual({ offset_ms: 86_400_000 });
  });

  it('When the snapshot is missing but journals exist, then load refuses rather than start from nothing', async () => {
    const { file } = setup();
    writeFileSync(journalPath(file, 1), '');
    await expect(open(file).load()).rejects.toThrow(/is missing but its journal/);
  });

  it('When a reset is followed by commits, then a restart has the reset world plus those commits', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([aProduct(1)]));
    await world(p, snapshotOf([aProduct(1)])).put(aProduct(2));
    const reset = snapshotOf([aProduct(10)]);
    const done = p.replaceAll(reset);
    const after = world(p, reset).put(aProduct(11)); // committed while the reset's snapshot is being written
    await Promise.all([done, after]);
    await p.close();
    expect(ids(await open(file).load())).toEqual([aProduct(10).id, aProduct(11).id]);
  });

  it('When commit is called after close, then it rejects', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([]));
    await p.close();
    await expect(world(p, snapshotOf([])).put(aProduct(1))).rejects.toThrow(/closed/);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});

describe('JournalPersistence shutdown', () => {
  it('When close() is called during a compaction, then it stops the snapshot write early and loses nothing', async () => {
    const { file } = setup();
    const initial = snapshotOf(Array.from({ length: 3000 }, (_, i) => aProduct(i)));
    const p = JournalPersistence.open(file, { compactMinBytes: 1, compactGrowth: 0, snapshotChunkBytes: 4096 });
    await p.replaceAll(initial);
    const w = world(p, initial);
    await w.put(aProduct(5000)); // crosses the threshold: a compaction of 3,000 records starts in the background
    await new Promise((resolve) => setImmediate(resolve));
    await p.close();
    expect(existsSync(file.replace(/sandbox\.json$/, '.sandbox.json.tmp'))).toBe(false);
    expect(await open(file).load()).toEqual(w.snapshot());
  });

  it('When a torn line ends a journal generation that is not the newest, then load refuses (writes are ordered, so that is not a crash)', async () => {
    const { file } = setup();
    const p = open(file);
    await p.replaceAll(snapshotOf([]));
    await world(p, snapshotOf([])).put(aProduct(1));
    await p.close();
    appendFileSync(journalPath(file, 1), '0badc0de {"seq":2,"chan');
    writeFileSync(journalPath(file, 2), '');
    await expect(open(file).load()).rejects.toThrow(/journal\.1 of the data file .* is damaged: line 2/);
  });
});
