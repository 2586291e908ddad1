import { crc32 } from 'node:zlib';
import type { Change } from './persistence.js';

/** One parsed journal line: the changes of one commit and its position in the sequence of all commits. */
export interface JournalEntry {
  seq: number;
  changes: Change[];
  /** The world's clock offset from this commit on, when the commit moved the clock. */
  clock?: number;
}

/**
 * One commit as one line: `<crc32 of the JSON, 8 hex digits> <JSON>\n`. The checksum lets load() tell a line
 * torn by a crash mid-write (only ever the last one) from a complete one; the newline marks its end.
 */
export function encodeJournalLine(seq: number, changes: Change[], clock?: number): string {
  const json = JSON.stringify(clock === undefined ? { seq, changes } : { seq, changes, clock });
  return `${checksum(json)} ${json}\n`;
}

/** What a journal file holds: its complete entries, and how many bytes of it they occupy (the rest is a torn tail). */
export interface ParsedJournal {
  entries: JournalEntry[];
  goodBytes: number;
  tornBytes: number;
}

/** Thrown for a line that is damaged where no crash could have damaged it; the caller names the file. */
export class JournalCorruptError extends Error {}

/**
 * Parses a journal file. A damaged final line is a write the crash interrupted (never acknowledged), so it is
 * reported as torn when `tailMayBeTorn`; a damaged line anywhere else means the file was changed by something
 * other than this sandbox, and replaying past it would silently lose what follows.
 */
export function parseJournal(content: Buffer, tailMayBeTorn: boolean): ParsedJournal {
  const entries: JournalEntry[] = [];
  let offset = 0;
  let lineNo = 0;
  while (offset < content.length) {
    lineNo++;
    const end = content.indexOf(0x0a, offset);
    const isLast = end === -1 || end === content.length - 1;
    const entry = end === -1 ? undefined : decodeLine(content, offset, end);
    if (!entry) {
      if (isLast && tailMayBeTorn) return { entries, goodBytes: offset, tornBytes: content.length - offset };
      throw new JournalCorruptError(`line ${lineNo} is damaged (bad checksum or incomplete)`);
    }
    entries.push(entry);
    offset = end + 1;
  }
  return { entries, goodBytes: offset, tornBytes: 0 };
}

/** Checks and parses the line in content[start, end): the checksum is taken over the bytes, as they were written. */
function decodeLine(content: Buffer, start: number, end: number): JournalEntry | undefined {
  if (end - start < 10 || content[start + 8] !== 0x20) return undefined;
  const json = content.subarray(start + 9, end);
  if (content.toString('latin1', start, start + 8) !== crc32(json).toString(16).padStart(8, '0')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json.toString('utf8'));
  } catch {
    return undefined;
  }
  const entry = value as JournalEntry;
  if (typeof entry?.seq !== 'number' || !Array.isArray(entry.changes) || !entry.changes.every(isChange)) return undefined;
  if (entry.clock !== undefined && !isClockOffset(entry.clock)) return undefined;
  return entry;
}

function isChange(change: Change): boolean {
  return (
    typeof change?.c === 'string' &&
    typeof change.id === 'string' &&
    (change.op === 'del' || (change.op === 'put' && typeof change.rec === 'object' && change.rec !== null))
  );
}

/** A clock offset as a data file keeps it: whole milliseconds, never behind the wall clock. */
export const isClockOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function checksum(text: string): string {
  return crc32(text).toString(16).padStart(8, '0');
}
