import { defineCollection } from '../../src/store/collection.js';
import { MemoryPersistence } from '../../src/store/store.js';
import type { Persistence } from '../../src/store/persistence.js';
import { Store } from '../../src/store/store.js';

interface User {
  id: string;
  name: string;
  email: string;
  created_at: string;
  updated_at: string;
}

/** A note, the second collection: lets a test reach one collection of a view before another. */
interface Note {
  id: string;
  text: string;
}

/** A store of users indexed by email, and notes: what the generic store's tests need, and no area. */
const userDefs = { users: defineCollection<User>({ indexes: ['email'] }), notes: defineCollection<Note>({}) };

export type UserStore = Store<typeof userDefs>;

/** An empty store of users; over `base`, a copy-on-write view of it. */
export const aUserStore = (persistence: Persistence = new MemoryPersistence(), base?: UserStore): UserStore => new Store(persistence, 1, userDefs, base);

/** A user record; the email defaults to one derived from the id. */
export const aUser = (id: string, email = `${id}@x.example`): User => ({
  id,
  name: id,
  email,
  created_at: '2024-01-01T00:00:00.000Z',
  updated_at: '2024-01-01T00:00:00.000Z',
});
