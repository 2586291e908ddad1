// What the tolerant reader ignored in one request, kept in the request's state so the answer can say it in a header
// and the journal can record it, without either reaching into the other.
import type { Response } from 'express';
import { clipText } from './redact.js';

/** The response header that names the ignored fields: `Sandbox-Ignored-Fields: query._, body.id`. */
export const IGNORED_FIELDS_HEADER = 'Sandbox-Ignored-Fields';

/** The header names at most this many fields and says how many more there were. */
const HEADER_NAMES = 20;
/**
 * A name in the header is cut to this many characters (ending `...`): a field's name has no length of its own, and a
 * client reads a response head of 16 KiB at most (Node.js's fetch and node:http), so 20 long names made the answer
 * unreadable. 20 names and their separators stay under 5 KB.
 */
const HEADER_NAME_CHARS = 200;
/** The journal keeps at most this many names per request. */
const JOURNAL_NAMES = 1000;
/** The journal keeps names up to about this many characters in all (as it cuts bodies), each name cut to the second. */
const JOURNAL_NAME_CHARS = 16 * 1024;
const JOURNAL_NAME_CHARS_EACH = 1024;

/** What one request carried that the contract does not name, and what it carried before those were taken out. */
export interface IgnoredFields {
  /** Dotted paths: `query.<name>`, `body.<field>`, `body.costs.0.<field>`. */
  fields: string[];
  /** The body as received, for the journal (the handler sees it without the ignored fields). */
  received: { body: unknown };
  /** How many fields were ignored (`fields` keeps the journal's share of their names). */
  total?: number;
}

/** A field path as a header can carry it: visible ASCII, with commas, percent signs and anything else percent-encoded. */
function headerSafe(name: string): string {
  return name.replace(/[^\x21-\x24\x26-\x2b\x2d-\x7e]/gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** A name as the header carries it, cut to HEADER_NAME_CHARS (never inside a percent-encoded character). */
function headerName(name: string): string {
  const safe = headerSafe(name);
  if (safe.length <= HEADER_NAME_CHARS) return safe;
  let cut = '';
  for (const c of name) {
    const encoded = headerSafe(c);
    if (cut.length + encoded.length > HEADER_NAME_CHARS - 3) break;
    cut += encoded;
  }
  return `${cut}...`;
}

/** The header's value: the first names (each cut short when long), then how many more were ignored. */
export function ignoredHeaderValue(fields: readonly string[], total = fields.length): string {
  const shown = fields.slice(0, HEADER_NAMES).map(headerName);
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')}, (${more} more)` : shown.join(', ');
}

/**
 * The names the journal keeps of what was ignored: whole while they fit its budget (each cut to
 * JOURNAL_NAME_CHARS_EACH, ending `…`), then how many more there were, as the header says it (`(N more)`).
 */
export function journaledIgnored(ignored: IgnoredFields): string[] {
  const kept: string[] = [];
  let budget = JOURNAL_NAME_CHARS;
  for (const name of ignored.fields) {
    const shown = name.length > JOURNAL_NAME_CHARS_EACH ? `${clipText(name, JOURNAL_NAME_CHARS_EACH - 1)}…` : name;
    if (shown.length > budget) break;
    budget -= shown.length;
    kept.push(shown);
  }
  const more = (ignored.total ?? ignored.fields.length) - kept.length;
  if (more > 0) kept.push(`(${more} more)`);
  return kept;
}

/** What is kept of the ignored fields: the journal's share of the names, and the request as received. */
export function keptIgnored(ignored: IgnoredFields): IgnoredFields {
  return { ...ignored, fields: ignored.fields.slice(0, JOURNAL_NAMES), total: ignored.total ?? ignored.fields.length };
}

/** Names the ignored fields in the answer's header. */
export function reportIgnored(res: Pick<Response, 'setHeader'>, ignored: IgnoredFields): void {
  res.setHeader(IGNORED_FIELDS_HEADER, ignoredHeaderValue(ignored.fields, ignored.total));
}
