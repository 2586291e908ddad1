/**
 * Opaque paging tokens (NextToken, pageToken): base64url JSON, so a token carries its filters like the real API's.
 * A token also names the channel it was issued for: the seller API's tokens belong to one seller, so another
 * channel's token is refused instead of paging this channel's data from another listing's offset.
 */
export function encodePageToken(channelId: string, value: object): string {
  return Buffer.from(JSON.stringify({ ...value, c: channelId }), 'utf8').toString('base64url');
}

/**
 * The decoded token when the retailer issued it for this channel with the shape `isIssued` checks, else undefined.
 * A client can forge any base64url JSON, so a token is input: a field missing or of another type is the retailer's
 * 400, never a crash.
 */
export function decodePageToken<T extends object>(token: string, channelId: string, isIssued: (value: object) => value is T): T | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null || (value as { c?: unknown }).c !== channelId) return undefined;
    return isIssued(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A position in a listing, as tokens carry it: a whole number of items from the start. */
export const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The offset of a token holding only `{ o }` (catalog and inventory pages); undefined when forged or another channel's. */
export function decodeOffsetToken(token: string, channelId: string): number | undefined {
  return decodePageToken(token, channelId, (value): value is { o: number } => isOffset((value as { o?: unknown }).o))?.o;
}
