// A client's edit (PUT) of a record, as an Eloquent update saves it: only when a field it sets takes another value is
// the record written and its updated_at stamped. A record sent back unchanged (a GET body PUT as it was read) stays
// as it is, so updated_at keeps meaning "last changed" (scraping's catch-up reads it to let a client's edit win).
import { isDeepStrictEqual } from 'node:util';
import type { Collection } from './collection.js';

/** Applies `patch` to record `id` with `updated_at` set to `at`, when it changes anything; answers the record as it is after. */
export function editRecord<T extends { id: string; updated_at: string }>(collection: Collection<T>, id: string, patch: Partial<T>, at: string): T {
  const before = collection.get(id);
  if (!before) throw new Error(`${collection.name} ${id} does not exist`);
  const changes = (Object.keys(patch) as (keyof T)[]).some((field) => !isDeepStrictEqual(before[field], patch[field]));
  return changes ? collection.update(id, { ...patch, updated_at: at }) : before;
}
