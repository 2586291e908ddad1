/**
 * A path (or one segment) percent-decoded, or as written when it does not decode (`%ZZ`, a lone `%`, overlong
 * UTF-8): the lenient reading a server gives a segment it must still route or look up.
 */
export function decodedOrAsWritten(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
