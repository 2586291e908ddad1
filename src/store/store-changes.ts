// A store's changes against the seeded base it started from, per collection: what a workspace bundle carries.
import { isDeepStrictEqual } from 'node:util';
import type { Collection } from './collection.js';
import type { Store } from './store.js';

type Rec = { id: string };

/** One collection's changes: records added and changed (whole), ids deleted; each in the collection's order. */
export interface CollectionChanges {
  added: Rec[];
  changed: Rec[];
  deleted: string[];
}

const collectionOf = (store: Store, name: string) => (store.collections as unknown as Record<string, Collection<Rec>>)[name]!;

/**
 * The changes of every collection of `store` against `base` (a store of the same collections), leaving out the
 * collections named in `skip` and collections without a change. A copy-on-write view over `base` answers from what
 * it keeps; any other store is compared record by record.
 */
export function storeChanges(store: Store, base: Store, skip: ReadonlySet<string>): Record<string, CollectionChanges> {
  const out: Record<string, CollectionChanges> = {};
  for (const name of Object.keys(store.defs)) {
    if (skip.has(name)) continue;
    const changes = collectionChanges(collectionOf(store, name), collectionOf(base, name));
    if (changes.added.length + changes.changed.length + changes.deleted.length > 0) out[name] = changes;
  }
  return out;
}

function collectionChanges(current: Collection<Rec>, base: Collection<Rec>): CollectionChanges {
  const changes: CollectionChanges = { added: [], changed: [], deleted: [] };
  const own = current.ownIds();
  if (own) {
    for (const id of own) {
      const record = current.get(id);
      const before = base.get(id);
      if (!record) {
        if (before) changes.deleted.push(id);
      } else (before ? changes.changed : changes.added).push(record);
    }
    return changes;
  }
  for (const record of current.all()) {
    const before = base.get(record.id);
    if (!before) changes.added.push(record);
    else if (!isDeepStrictEqual(before, record)) changes.changed.push(record);
  }
  for (const record of base.all()) if (!current.has(record.id)) changes.deleted.push(record.id);
  return changes;
}

/**
 * Applies changes to a store without recording them (as a load does): changed and deleted base records in place,
 * added records after the rest, in the order given.
 */
export function applyChanges(store: Store, changes: Readonly<Record<string, CollectionChanges>>): void {
  for (const [name, { added, changed, deleted }] of Object.entries(changes)) {
    const collection = collectionOf(store, name);
    for (const id of deleted) collection.restore(id, undefined);
    for (const record of changed) collection.restore(record.id, record);
    for (const record of added) collection.restore(record.id, record);
  }
}
