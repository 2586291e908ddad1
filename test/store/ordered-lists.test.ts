import { describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../../src/store/store.js';
import { aUser, aUserStore, type UserStore } from './user-store.js';

type User = ReturnType<typeof aUser>;
/** Descending names: an order unlike the insertion order, so a list that was not sorted shows it. */
const byNameDesc = (a: User, b: User) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0);
const SHARED = 'shared@x.example';
const names = (records: readonly User[]) => records.map((r) => r.name);
const insert = (store: UserStore, id: string) => store.apply(() => store.collections.users.insert(aUser(id, SHARED)));

describe('a list ordered once between two writes (whereInOrder)', () => {
  it('When a list is read twice with no write between, then it is in the order asked, the same frozen array both times', () => {
    const store = aUserStore();
    for (const id of ['b', 'c', 'a']) insert(store, id);
    const first = store.collections.users.whereInOrder('email', SHARED, byNameDesc);
    expect(names(first)).toEqual(['c', 'b', 'a']);
    expect(store.collections.users.whereInOrder('email', SHARED, byNameDesc)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('When a record is added, changed or removed, then the next read orders the list as it is now', () => {
    const store = aUserStore();
    for (const id of ['b', 'a']) insert(store, id);
    const users = store.collections.users;
    expect(names(users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['b', 'a']);
    insert(store, 'c');
    expect(names(users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['c', 'b', 'a']);
    store.apply(() => users.update('a', { name: 'z' }));
    expect(names(users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['z', 'c', 'b']);
    store.apply(() => users.remove('c'));
    expect(names(users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['z', 'b']);
  });

  it('When a transaction that added a record fails, then the list read inside it is not what the next read sees', () => {
    const store = aUserStore();
    insert(store, 'a');
    const users = store.collections.users;
    expect(() =>
      store.apply(() => {
        users.insert(aUser('b', SHARED));
        expect(names(users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['b', 'a']);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(names(users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['a']);
  });

  it('When a copy-on-write view changes nothing, then it reads its base list; once it adds a record, its own', () => {
    const base = aUserStore();
    for (const id of ['a', 'b']) insert(base, id);
    base.freeze();
    const view = aUserStore(new MemoryPersistence(), base);
    const fromBase = base.collections.users.whereInOrder('email', SHARED, byNameDesc);
    expect(view.collections.users.whereInOrder('email', SHARED, byNameDesc)).toBe(fromBase);
    insert(view, 'c');
    expect(names(view.collections.users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['c', 'b', 'a']);
    expect(names(base.collections.users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['b', 'a']);
    view.discardChanges();
    expect(names(view.collections.users.whereInOrder('email', SHARED, byNameDesc))).toEqual(['b', 'a']);
  });

  it('When a record that sorts last is added, then the list gains it at its end without being sorted again; one that sorts earlier is placed by a new sort', () => {
    const store = aUserStore();
    const users = store.collections.users;
    for (const id of ['b', 'c']) insert(store, id);
    let compared = 0;
    const counted = (a: User, b: User) => (compared++, a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const before = users.whereInOrder('email', SHARED, counted);
    expect(names(before)).toEqual(['b', 'c']);
    compared = 0;
    insert(store, 'd');
    store.apply(() => users.insert(aUser('other', 'other@x.example')));
    const after = users.whereInOrder('email', SHARED, counted);
    expect(names(after)).toEqual(['b', 'c', 'd']);
    expect(compared).toBe(1);
    expect(Object.isFrozen(after)).toBe(true);
    expect(names(before)).toEqual(['b', 'c']);
    insert(store, 'a');
    expect(names(users.whereInOrder('email', SHARED, counted))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('When a copy-on-write view adds a record that sorts last to a list it already ordered, then its list gains it and the base list stays', () => {
    const base = aUserStore();
    for (const id of ['a', 'b']) insert(base, id);
    base.freeze();
    const view = aUserStore(new MemoryPersistence(), base);
    const byName = (a: User, b: User) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    insert(view, 'c');
    expect(names(view.collections.users.whereInOrder('email', SHARED, byName))).toEqual(['a', 'b', 'c']);
    insert(view, 'd');
    expect(names(view.collections.users.whereInOrder('email', SHARED, byName))).toEqual(['a', 'b', 'c', 'd']);
    view.apply(() => view.collections.users.remove('a'));
    expect(names(view.collections.users.whereInOrder('email', SHARED, byName))).toEqual(['b', 'c', 'd']);
    expect(names(base.collections.users.whereInOrder('email', SHARED, byName))).toEqual(['a', 'b']);
  });
});
