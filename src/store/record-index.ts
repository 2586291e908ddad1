// Lookup indexes of a collection: index name -> key value -> the records filed under it (id -> record), each
// bucket in insertion order.

/** One collection's indexes. */
export type RecordIndexes<T> = Map<string, Map<unknown, Map<string, T>>>;

/** How a record's keys are computed for each index. */
export type KeyFns<T> = Map<string, (record: T) => readonly unknown[]>;

/** Empty indexes for the given key functions. */
export function emptyIndexes<T>(keyFns: KeyFns<T>): RecordIndexes<T> {
  const indexes: RecordIndexes<T> = new Map();
  for (const name of keyFns.keys()) indexes.set(name, new Map());
  return indexes;
}

/**
 * Files `after` in place of `before` (either may be absent). A record whose key did not change keeps its place in
 * that bucket (Map.set on an existing key), so an update never reorders an index query.
 */
export function reindex<T extends { id: string }>(indexes: RecordIndexes<T>, keyFns: KeyFns<T>, before: T | undefined, after: T | undefined): void {
  for (const [name, index] of indexes) {
    const keyFn = keyFns.get(name)!;
    const newKeys = after ? keyFn(after) : [];
    if (before) {
      for (const key of keyFn(before)) {
        if (newKeys.includes(key)) continue;
        const bucket = index.get(key);
        bucket?.delete(before.id);
        if (bucket && bucket.size === 0) index.delete(key);
      }
    }
    if (!after) continue;
    for (const key of newKeys) {
      let bucket = index.get(key);
      if (!bucket) index.set(key, (bucket = new Map()));
      bucket.set(after.id, after);
    }
  }
}

/** Freezes a record and everything it holds, so a shared base record cannot be changed in place. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
