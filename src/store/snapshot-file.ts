import { existsSync } from 'node:fs';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { snapshotTempPath } from './journal-files.js';
import { isClockOffset } from './journal-line.js';
import type { Snapshot } from './persistence.js';

/** Which journal lines a snapshot already contains: replay starts at `generation`, and its first line is `seq + 1`. */
export interface JournalMark {
  generation: number;
  seq: number;
}

/** A snapshot as it sits on disk: the Snapshot plus the journal position it includes. */
export interface SnapshotFile extends Snapshot {
  journal?: JournalMark;
}

/**
 * Reads the data file through lowdb (`Low` + `JSONFile`, never the Preset, which silently turns into memory
 * under NODE_ENV=test). Answers undefined when there is no file, else its JSON value (a file holding `null` is
 * there, and answers null: lowdb reads both as null); JSON errors propagate for the caller to name the file.
 */
export async function readSnapshotFile(file: string): Promise<unknown> {
  const db = new Low<unknown>(new JSONFile<unknown>(file), null);
  await db.read();
  if (db.data === null && !existsSync(file)) return undefined;
  return db.data;
}

/** The store format this sandbox writes and reads (`format` in the data file). */
export const SNAPSHOT_FORMAT = 1;

/** True when `value` has the shape of a sandbox data file (not some other JSON the user pointed us at). */
export function isSnapshotFile(value: unknown): value is SnapshotFile {
  const snap = value as SnapshotFile;
  if (snap === null || typeof snap !== 'object' || snap.format !== SNAPSHOT_FORMAT || typeof snap.seed !== 'number') return false;
  if (snap.collections === null || typeof snap.collections !== 'object') return false;
  if (notARecord(snap.collections) !== undefined) return false;
  if (snap.clock !== undefined && !isClockOffset((snap.clock as { offset_ms?: unknown } | null)?.offset_ms)) return false;
  const mark = snap.journal;
  return mark === undefined || (Number.isInteger(mark.generation) && Number.isInteger(mark.seq));
}

/**
 * Where a hand-edited data file holds something that is not a record (`collections.products[3]`): every record the
 * store keeps is an object with a string id, which its indexes and every answer rely on. Undefined when all are.
 */
export function notARecord(collections: object): string | undefined {
  for (const [name, records] of Object.entries(collections)) {
    if (!Array.isArray(records)) return `collections.${name}`;
    const at = records.findIndex((r: unknown) => r === null || typeof r !== 'object' || Array.isArray(r) || typeof (r as { id?: unknown }).id !== 'string');
    if (at >= 0) return `collections.${name}[${at}]`;
  }
  return undefined;
}

/** Raised when close() stops a background snapshot write; the old snapshot and every journal stay in place. */
export class SnapshotWriteAborted extends Error {}

/**
 * Writes a snapshot like steno does (temp file, then rename over the data file, so a reader or a crash sees the old
 * file or the new one, never half of one), but serialized a few hundred records at a time with an await between
 * chunks: JSON.stringify of a whole 10,000-product store blocks the event loop for as long as the store is large,
 * which would stall every request during a background compaction. One record per line also keeps the file
 * readable and diffable. The temp file is fsynced before the rename (cheap here, off the request path) so even a
 * power loss leaves the old or the new snapshot, never an empty one. Answers the bytes written.
 *
 * Records must not be mutated after `snapshot` was taken (the store's records are immutable), since the chunks are
 * serialized over several turns of the event loop.
 */
export async function writeSnapshotFile(file: string, snapshot: SnapshotFile, opts: { chunkBytes?: number; shouldStop?: () => boolean } = {}): Promise<number> {
  const chunkBytes = opts.chunkBytes ?? 256 * 1024;
  const temp = snapshotTempPath(file);
  await mkdir(dirname(file), { recursive: true });
  const handle = await open(temp, 'w');
  let written = 0;
  try {
    let pending: string[] = [];
    let pendingLength = 0;
    const add = (text: string): void => {
      pending.push(text);
      pendingLength += text.length;
    };
    const flush = async (): Promise<void> => {
      if (opts.shouldStop?.()) throw new SnapshotWriteAborted('snapshot write stopped by close()');
      written += await writeAll(handle, pending.join(''));
      pending = [];
      pendingLength = 0;
    };

    const head = {
      format: snapshot.format,
      seed: snapshot.seed,
      ...(snapshot.journal && { journal: snapshot.journal }),
      ...(snapshot.clock && { clock: snapshot.clock }),
    };
    add(`${JSON.stringify(head, null, 2).slice(0, -2)},\n  "collections": {`);
    const names = Object.keys(snapshot.collections);
    for (const [n, name] of names.entries()) {
      const records = snapshot.collections[name];
      add(`${n === 0 ? '' : ','}\n    ${JSON.stringify(name)}: [`);
      for (let i = 0; i < records.length; i++) {
        add(`${i === 0 ? '' : ','}\n      ${JSON.stringify(records[i])}`);
        if (pendingLength >= chunkBytes) await flush();
      }
      add(records.length === 0 ? ']' : '\n    ]');
    }
    add(names.length === 0 ? '}\n}\n' : '\n  }\n}\n');
    await flush();
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await rename(temp, file);
  return written;
}

/** Writes every byte of `text` (a single write may be short) and answers how many bytes that was. */
export async function writeAll(handle: FileHandle, text: string | Buffer): Promise<number> {
  const buffer = typeof text === 'string' ? Buffer.from(text) : text;
  let offset = 0;
  while (offset < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, offset, buffer.length - offset);
    offset += bytesWritten;
  }
  return buffer.length;
}
