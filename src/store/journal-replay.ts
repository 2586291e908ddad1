import type { JournalEntry } from './journal-line.js';
import type { Snapshot } from './persistence.js';

/**
 * Applies journal entries to a snapshot with the store's own ordering rules, so a loaded world lists records in
 * the order the running one did: a put of a known id keeps its place (Map.set), a new id goes last, a del removes.
 * Only collections the journal touches are rebuilt.
 */
export function replayJournal(snapshot: Snapshot, entries: Iterable<JournalEntry>): Snapshot {
  const touched = new Map<string, Map<string, unknown>>();
  let clock = snapshot.clock;
  for (const entry of entries) {
    if (entry.clock !== undefined) clock = { offset_ms: entry.clock };
    for (const change of entry.changes) {
      let records = touched.get(change.c);
      if (!records) {
        const base = (snapshot.collections[change.c] ?? []) as { id: string }[];
        records = new Map(base.map((record) => [record.id, record]));
        touched.set(change.c, records);
      }
      if (change.op === 'put') records.set(change.id, change.rec);
      else records.delete(change.id);
    }
  }
  const collections = { ...snapshot.collections };
  for (const [name, records] of touched) collections[name] = [...records.values()];
  return { format: snapshot.format, seed: snapshot.seed, collections, ...(clock && { clock }) };
}
