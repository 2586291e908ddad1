import type { RetailerStateRecord } from './record-types.js';

/**
 * How much one channel may change at the simulated retailer. Its changes live in one record (the generated account
 * plus these overrides), outside the workspace's record quota, so without bounds one integration could grow the
 * store (and a hosted process's memory) without end: at most LISTINGS listings changed or deleted, a listing's
 * attributes at most ATTRIBUTE_BYTES of JSON, at most FEEDS feeds, each name it keeps at most NAME_CHARS characters.
 */
export const RETAILER_STATE_LIMITS = { listings: 1000, attributeBytes: 32 * 1024, feeds: 1000, nameChars: 256 } as const;

const { listings: LISTINGS, attributeBytes: ATTRIBUTE_BYTES, feeds: FEEDS, nameChars: NAME_CHARS } = RETAILER_STATE_LIMITS;

/** Why a name the retailer keeps (a listing's productType, a feed's feedType or inputFeedDocumentId) is too long, or null. */
export function nameProblem(field: string, value: string): string | null {
  return value.length > NAME_CHARS ? `${field} must not be longer than ${NAME_CHARS} characters.` : null;
}

/** Why the channel may not change (or delete) this SKU's listing, or null; a SKU it already changed may always change again. */
export function listingChangeProblem(state: RetailerStateRecord | undefined, sku: string): string | null {
  const changed = state ? Object.keys(state.listings) : [];
  if (changed.length < LISTINGS || Object.hasOwn(state?.listings ?? {}, sku)) return null;
  return `This channel has changed ${LISTINGS} listings, the most the sandbox's retailer keeps per channel; change or delete one of those instead.`;
}

/** Why these attributes are too large to keep, or null. */
export function attributesProblem(attributes: Record<string, unknown>): string | null {
  const bytes = Buffer.byteLength(JSON.stringify(attributes), 'utf8');
  return bytes > ATTRIBUTE_BYTES ? `attributes must not be larger than ${ATTRIBUTE_BYTES} bytes of JSON (got ${bytes}).` : null;
}

/** Why the channel may not create another feed, or null. */
export function feedProblem(state: RetailerStateRecord | undefined): string | null {
  return (state?.feeds.length ?? 0) >= FEEDS ? `This channel has created ${FEEDS} feeds, the most the sandbox's retailer keeps per channel.` : null;
}

/** What a stored state breaks of these limits, by field (a loaded workspace bundle is held to them too). */
export function retailerStateProblems(state: RetailerStateRecord): { field: 'listings' | 'feeds'; message: string }[] {
  const problems: { field: 'listings' | 'feeds'; message: string }[] = [];
  const listings = Object.values(state.listings);
  if (listings.length > LISTINGS)
    problems.push({ field: 'listings', message: `It holds ${listings.length} changed listings; the retailer keeps ${LISTINGS} per channel.` });
  for (const listing of listings) {
    const problem = listing ? attributesProblem(listing.attributes) : null;
    if (problem) problems.push({ field: 'listings', message: `Listing ${listing!.sku}: ${problem}` });
  }
  if (state.feeds.length > FEEDS) problems.push({ field: 'feeds', message: `It holds ${state.feeds.length} feeds; the retailer keeps ${FEEDS} per channel.` });
  return problems;
}
