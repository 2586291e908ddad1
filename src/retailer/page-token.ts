/** Opaque paging tokens (NextToken, pageToken): base64url JSON, so a token carries its filters like the real API's. */
export function encodePageToken(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
}

/** The decoded token, or undefined when it is not one this retailer issued. */
export function decodePageToken<T extends object>(token: string): T | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
