import { describe, expect, it } from 'vitest';
import { MemoryPersistence } from '../../src/store/store.js';
import { QuotaExceeded } from '../../src/store/quota-exceeded.js';
import { aUser as user, aUserStore, type UserStore } from './user-store.js';

function viewOverAB(): UserStore {
  const base = aUserStore();
  base.apply(() => {
    base.collections.users.insert(user('a'));
    base.collections.users.insert(user('b'));
  });
  return aUserStore(new MemoryPersistence(), base.freeze());
}

describe('the records a copy-on-write view adds, as its quota counts them', () => {
  it('When a view inserts, updates base records, deletes base records and deletes its own, then only the records of its own it still holds count', () => {
    const view = viewOverAB();
    const users = view.collections.users;
    view.apply(() => {
      users.insert(user('x'));
      users.insert(user('y'));
    });
    view.apply(() => users.update('a', { name: 'renamed' }));
    view.apply(() => users.remove('b'));
    expect(view.addedRecords).toBe(2);
    view.apply(() => users.remove('x'));
    expect(view.addedRecords).toBe(1);
    view.discardChanges();
    expect(view.addedRecords).toBe(0);
  });

  it('When a transaction would pass the quota, then it throws QuotaExceeded and leaves nothing; one that adds nothing passes at the quota', () => {
    const view = viewOverAB();
    const users = view.collections.users;
    view.apply(() => users.insert(user('x')), 2);
    expect(() => view.apply(() => [users.insert(user('y')), users.insert(user('z'))], 2)).toThrow(QuotaExceeded);
    expect(users.has('y')).toBe(false);
    expect(view.addedRecords).toBe(1);
    view.apply(() => users.insert(user('y')), 2);
    view.apply(() => users.update('x', { name: 'still two' }), 2);
    expect(() => view.apply(() => users.insert(user('z')), 2)).toThrow(expect.objectContaining({ quota: 'records', limit: 2 }));
  });
});
