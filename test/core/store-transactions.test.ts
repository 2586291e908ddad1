import { describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../../src/store/store.js';
import type { Change, Snapshot } from '../../src/store/persistence.js';
import { aUser as user, aUserStore } from '../store/user-store.js';

class RecordingPersistence extends MemoryPersistence {
  commits: Change[][] = [];
  override async commit(changes: Change[], _snapshot: () => Snapshot): Promise<void> {
    this.commits.push(changes);
  }
}

describe('store transactions', () => {
  it('When a transaction throws half-way, then every change it made is undone and nothing is persisted', async () => {
    const persistence = new RecordingPersistence();
    const store = aUserStore(persistence);
    await store.transact(() => {
      store.collections.users.insert(user('a'));
      store.collections.users.insert(user('b'));
    });
    await expect(
      store.transact(() => {
        store.collections.users.insert(user('c'));
        store.collections.users.update('a', { name: 'changed', email: 'new@x.example' });
        store.collections.users.remove('b');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(store.collections.users.all().map((u) => [u.id, u.name])).toEqual([
      ['a', 'a'],
      ['b', 'b'],
    ]);
    expect(store.collections.users.where('email', 'new@x.example')).toEqual([]);
    expect(store.collections.users.where('email', 'a@x.example')).toHaveLength(1);
    expect(persistence.commits).toHaveLength(1);
  });

  it('When a transaction succeeds, then its changes reach the persistence in order, deletions without a record', async () => {
    const persistence = new RecordingPersistence();
    const store = aUserStore(persistence);
    await store.transact(() => {
      store.collections.users.insert(user('a'));
      store.collections.users.remove('a');
    });
    expect(persistence.commits[0].map((c) => [c.c, c.op, c.id])).toEqual([
      ['users', 'put', 'a'],
      ['users', 'del', 'a'],
    ]);
  });

  it('When a record is updated, then it keeps its place in the collection', async () => {
    const store = aUserStore();
    await store.transact(() => {
      for (const id of ['a', 'b', 'c']) store.collections.users.insert(user(id));
    });
    await store.transact(() => store.collections.users.update('a', { name: 'A' }));
    expect(store.collections.users.all().map((u) => u.id)).toEqual(['a', 'b', 'c']);
  });

  it('When something writes outside a transaction, then it is refused', () => {
    const store = aUserStore();
    expect(() => store.collections.users.insert(user('a'))).toThrow(/outside a transaction/);
  });
});
