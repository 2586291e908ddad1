/** Opaque paging tokens (NextToken, pageToken): base64url JSON, so a token carries its filters like the real API's. */
export function encodePageToken(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/**
 * The decoded token when it has the shape the retailer issues (`isIssued`), else undefined. A client can forge any
 * base64url JSON, so a token is input: a field missing or of another type is the retailer's 400, never a crash.
 */
export function decodePageToken<T extends object>(token: string, isIssued: (value: object) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && isIssued(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A position in a listing, as tokens carry it: a whole number of items from the start. */
export const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The offset of a token holding only `{ o }` (catalog and inventory pages); undefined when forged. */
export function decodeOffsetToken(token: string): number | undefined {
  return decodePageToken(token, (value): value is { o: number } => isOffset((value as { o?: unknown }).o))?.o;
}
