// What the tolerant reader ignored in one request, kept with the response (res.locals) so the answer can say it
// in a header and the journal can record it, without either reaching into the other.
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
  /** The query and body as received, for the journal (the handler sees them without the ignored fields). */
  received: { query: unknown; body: unknown };
}

/** A field path as a header can carry it: visible ASCII, with commas, percent signs and anything else percent-encoded. */
function headerSafe(name: string): string {
  return name.replace(/[^\x21-\x24\x26-\x2b\x2d-\x7e]/gu, (c) =>
    [...Buffer.from(c, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** The header's value: the first names, then how many more were ignored. */
export function ignoredHeaderValue(fields: readonly string[]): string {
  const shown = fields.slice(0, HEADER_NAMES).map(headerSafe);
  const more = fields.length - shown.length;
  return more > 0 ? `${shown.join(', ')}, (${more} more)` : shown.join(', ');
}

/** Notes on the response what was ignored and names it in the header. */
export function recordIgnored(res: Response, ignored: IgnoredFields): void {
  res.locals.ignoredFields = { ...ignored, fields: ignored.fields.slice(0, JOURNAL_NAMES) } satisfies IgnoredFields;
  res.setHeader(IGNORED_FIELDS_HEADER, ignoredHeaderValue(ignored.fields));
}

/** What the request's tolerant reader ignored, if anything (a response Express never saw has no locals). */
export function ignoredOf(res: { locals?: Record<string, unknown> }): IgnoredFields | undefined {
  return res.locals?.ignoredFields as IgnoredFields | undefined;
}
