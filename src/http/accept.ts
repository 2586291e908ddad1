// Content negotiation on `Accept` (RFC 9110 12.5.1) for an operation that answers in several media types: the
// client's preference (q) decides, then the more specific range, then the order the operation lists its types in.

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function ranges(accept: string): Range[] {
  const out: Range[] = [];
  for (const part of accept.split(',')) {
    const [media = '', ...params] = part.split(';');
    const [type, subtype] = media.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((s) => s.trim().toLowerCase());
      if (name === 'q') q = Number(value);
    }
    if (Number.isFinite(q) && q >= 0 && q <= 1) out.push({ type, subtype, q });
  }
  return out;
}

/** How well a range names a type: -1 not at all, else 0 (`*\/*`), 1 (`text/*`), 2 (`text/markdown`). */
function specificity(range: Range, type: string, subtype: string): number {
  if (range.type === '*' && range.subtype === '*') return 0;
  if (range.type !== type) return -1;
  if (range.subtype === '*') return 1;
  return range.subtype === subtype ? 2 : -1;
}

/**
 * The media type among `offered` the `Accept` header prefers; the first offered when there is no header (or it
 * names no media range at all), undefined when it allows none of them (the operation's 406).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string | undefined {
  const parsed = accept === undefined ? [] : ranges(accept);
  if (parsed.length === 0) return offered[0];
  let best: { media: string; q: number } | undefined;
  for (const media of offered) {
    const [type = '', subtype = ''] = media.split('/');
    // The most specific range that names the type sets its q (text/markdown;q=0 wins over text/*).
    let match: { q: number; specificity: number } | undefined;
    for (const range of parsed) {
      const s = specificity(range, type, subtype);
      if (s >= 0 && (match === undefined || s > match.specificity)) match = { q: range.q, specificity: s };
    }
    if (match && match.q > 0 && (best === undefined || match.q > best.q)) best = { media, q: match.q };
  }
  return best?.media;
}
