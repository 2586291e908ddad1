// What the tolerant reader ignored in one request, kept in the request's state so the answer can say it in a header
// and the journal can record it, without either reaching into the other.
import type { Response } from 'express';

/** The response header that names the ignored fields: `Sandbox-Ignored-Fields: query._, body.id`. */
export const IGNORED_FIELDS_HEADER = 'Sandbox-Ignored-Fields';

/** The header names at most this many fields and says how many more there were. */
const HEADER_NAMES = 20;
/** The journal keeps at most this many names per request. */
const JOURNAL_NAMES = 1000;

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

/** The header's value: the first names, then how many more were ignored. */
export function ignoredHeaderValue(fields: readonly string[], total = fields.length): string {
  const shown = fields.slice(0, HEADER_NAMES).map(headerSafe);
  const more = total - shown.length;
  return more > 0 ? `${shown.join(', ')}, (${more} more)` : shown.join(', ');
}

/** What is kept of the ignored fields: the journal's share of the names, and the request as received. */
export function keptIgnored(ignored: IgnoredFields): IgnoredFields {
  return { ...ignored, fields: ignored.fields.slice(0, JOURNAL_NAMES), total: ignored.total ?? ignored.fields.length };
}

/** Names the ignored fields in the answer's header. */
export function reportIgnored(res: Pick<Response, 'setHeader'>, ignored: IgnoredFields): void {
  res.setHeader(IGNORED_FIELDS_HEADER, ignoredHeaderValue(ignored.fields, ignored.total));
}
