import { describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../../src/store/store.js';
import { aUser as user, aUserStore, type UserStore } from './user-store.js';

/** A frozen base holding users a, b, c (b and c share an email, so one index bucket holds two records). */
function frozenBase(): UserStore {
  const base = aUserStore();
  base.apply(() => {
    base.collections.users.insert(user('a'));
    base.collections.users.insert(user('b', 'shared@x.example'));
    base.collections.users.insert(user('c', 'shared@x.example'));
  });
  return base.freeze();
}

const view = (base: UserStore) => aUserStore(new MemoryPersistence(), base);
const ids = (records: { id: string }[]) => records.map((r) => r.id);
const change = (store: UserStore, fn: (users: UserStore['collections']['users']) => void) => store.apply(() => fn(store.collections.users));

describe('copy-on-write workspaces over a frozen base', () => {
  it('When a view is untouched, then it reads the base records themselves, in order', () => {
    const base = frozenBase();
    const users = view(base).collections.users;
    expect(users.get('a')).toBe(base.collections.users.get('a'));
    expect(ids(users.all())).toEqual(['a', 'b', 'c']);
    expect(ids(users.where('email', 'shared@x.example'))).toEqual(['b', 'c']);
    expect(users.size).toBe(3);
  });

  it('When a base record is updated, then it keeps its place in the collection and in its index bucket', () => {
    const store = view(frozenBase());
    change(store, (users) => users.update('b', { name: 'B' }));
    const users = store.collections.users;
    expect(users.all().map((u) => u.name)).toEqual(['a', 'B', 'c']);
    expect(users.where('email', 'shared@x.example').map((u) => u.name)).toEqual(['B', 'c']);
  });

  it('When an update moves a base record to another index value, then the old bucket loses it and the new one has it', () => {
    const store = view(frozenBase());
    change(store, (users) => users.update('b', { email: 'a@x.example' }));
    const users = store.collections.users;
    expect(ids(users.where('email', 'shared@x.example'))).toEqual(['c']);
    expect(ids(users.where('email', 'a@x.example'))).toEqual(['a', 'b']);
    expect(users.countWhere('email', 'a@x.example')).toBe(2);
  });

  it('When a base record is deleted, then the view hides it everywhere and the size drops', () => {
    const store = view(frozenBase());
    change(store, (users) => users.remove('b'));
    const users = store.collections.users;
    expect(users.get('b')).toBeUndefined();
    expect(users.has('b')).toBe(false);
    expect(ids(users.all())).toEqual(['a', 'c']);
    expect(ids(users.where('email', 'shared@x.example'))).toEqual(['c']);
    expect(users.size).toBe(2);
  });

  it('When records are inserted, then they come after the base records, in the collection and in index queries', () => {
    const store = view(frozenBase());
    change(store, (users) => {
      users.insert(user('d', 'shared@x.example'));
      users.insert(user('e'));
    });
    const users = store.collections.users;
    expect(ids(users.all())).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(ids(users.where('email', 'shared@x.example'))).toEqual(['b', 'c', 'd']);
    expect(users.size).toBe(5);
    expect(() => change(store, (u) => u.insert(user('a')))).toThrow('exists already');
  });

  it('When a transaction in a view fails, then every change it made is undone and the view reads as before', () => {
    const store = view(frozenBase());
    change(store, (users) => users.insert(user('d')));
    expect(() =>
      change(store, (users) => {
        users.update('a', { email: 'moved@x.example' });
        users.remove('c');
        users.update('d', { name: 'D' });
        users.insert(user('e'));
        throw new Error('boom');
      }),
    ).toThrow('boom');
    const users = store.collections.users;
    expect(users.all().map((u) => u.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(users.where('email', 'a@x.example'))).toEqual(['a']);
    expect(users.where('email', 'moved@x.example')).toEqual([]);
    expect(ids(users.where('email', 'shared@x.example'))).toEqual(['b', 'c']);
    expect(users.size).toBe(4);
  });

  it('When a view discards its changes (a reset), then it reads exactly as the base again', () => {
    const base = frozenBase();
    const store = view(base);
    change(store, (users) => {
      users.update('a', { name: 'A' });
      users.remove('b');
      users.insert(user('d'));
    });
    const version = store.version;
    store.discardChanges();
    expect(store.collections.users.all()).toEqual(base.collections.users.all());
    expect(store.collections.users.size).toBe(3);
    expect(store.version).toBeGreaterThan(version);
  });

  it('When two views of one base change it, then neither sees the other and the base is never mutated', () => {
    const base = frozenBase();
    const before = structuredClone(base.snapshot());
    const one = view(base);
    const two = view(base);
    change(one, (users) => {
      users.update('a', { name: 'one' });
      users.insert(user('only-one'));
    });
    change(two, (users) => users.remove('a'));
    expect(one.collections.users.get('a')?.name).toBe('one');
    expect(two.collections.users.get('a')).toBeUndefined();
    expect(two.collections.users.get('only-one')).toBeUndefined();
    expect(base.snapshot()).toEqual(before);
  });

  it('When a view reaches a collection for the first time after a reset, then it reads the base and the same collection object stays in use', () => {
    const base = frozenBase();
    const store = view(base);
    store.apply(() => store.collections.notes.insert({ id: 'n1', text: 'gone after the reset' }));
    store.discardChanges();
    const users = store.collections.users;
    expect(users.size).toBe(base.collections.users.size);
    expect(store.collections.users).toBe(users);
    expect(store.collections.notes.size).toBe(0);
    expect(ids(store.collections.users.all())).toEqual(['a', 'b', 'c']);
    expect(Object.keys(store.snapshot().collections)).toEqual(Object.keys(base.snapshot().collections));
  });

  it('When anything tries to write to the frozen base, then it throws: records and collections alike', () => {
    const base = frozenBase();
    const record = base.collections.users.get('a')!;
    expect(Object.isFrozen(record)).toBe(true);
    expect(() => {
      (record as { name: string }).name = 'changed';
    }).toThrow(TypeError);
    expect(() => change(base, (users) => users.update('a', { name: 'changed' }))).toThrow('frozen base');
    expect(() => aUserStore(new MemoryPersistence(), aUserStore())).toThrow('frozen base');
  });
});
