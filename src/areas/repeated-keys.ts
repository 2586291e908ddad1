// What a handler refuses twice (a SKU of a merchant, an identifier of a record, a membership) is found in a whole
// world by one pass over its records: a loaded workspace bundle's world is held to these rules (world-rules.ts).

/** The records whose key an earlier record already had; a record without a key (undefined) repeats nothing. */
export function repeatedKeys<T>(records: Iterable<T>, keyOf: (record: T) => string | undefined): T[] {
  const seen = new Set<string>();
  const repeated: T[] = [];
  for (const record of records) {
    const key = keyOf(record);
    if (key === undefined) continue;
    if (seen.has(key)) repeated.push(record);
    else seen.add(key);
  }
  return repeated;
}

/**
 * One key of several parts. Every part but the last is an id or a name of a fixed alphabet (a UUID, an identifier
 * type), without the separator, so no two lists of parts make the same key whatever the last part holds.
 */
export const keyOf = (...parts: readonly string[]): string => parts.join('\u0000');
