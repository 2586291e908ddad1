/**
 * Opaque paging tokens (NextToken, pageToken): base64url JSON, so a token carries its filters like the real API's.
 * A token also names the channel it was issued for: the seller API's tokens belong to one seller, so another
 * channel's token is refused instead of paging this channel's data from another listing's offset.
 */
export function encodePageToken(channelId: string, value: object): string {
  return Buffer.from(JSON.stringify({ ...value, c: channelId }), 'utf8').toString('base64url');
}

/**
 * The decoded token when the retailer issued it for this channel: exactly the fields it issues (`fields`, plus the
 * channel) with the shape `isIssued` checks, else undefined. A client can forge any base64url JSON, so a token is
 * input: a field missing, extra or of another type is the retailer's 400, never a crash, and what comes back is a
 * new object of those fields alone, so nothing else a forged token carries reaches an operation.
 */
export function decodePageToken<T extends object>(
  token: string,
  channelId: string,
  fields: readonly (keyof T & string)[],
  isIssued: (value: Partial<Record<keyof T, unknown>>) => value is T,
): T | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const { c, ...rest } = value as Record<string, unknown>;
  if (c !== channelId || Object.keys(rest).some((key) => !(fields as readonly string[]).includes(key))) return undefined;
  const picked: Partial<Record<keyof T, unknown>> = {};
  for (const field of fields) if (Object.hasOwn(rest, field)) picked[field] = rest[field];
  return isIssued(picked) ? picked : undefined;
}

/** A position in a listing, as tokens carry it: a whole number of items from the start. */
export const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** The offset of a token holding only `{ o }` (catalog and inventory pages); undefined when forged or another channel's. */
export function decodeOffsetToken(token: string, channelId: string): number | undefined {
  return decodePageToken<{ o: number }>(token, channelId, ['o'], (value): value is { o: number } => isOffset(value.o))?.o;
}
