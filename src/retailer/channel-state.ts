import type { RetailerFeed, RetailerListing, RetailerStateRecord } from './record-types.js';
import type { SellerAccount } from './seller-account-types.js';

/** A channel's empty override record: nothing changed yet. */
export function emptyState(channelId: string, now: Date): RetailerStateRecord {
  return { id: channelId, channel_id: channelId, listings: {}, feeds: [], updated_at: now.toISOString() };
}

/** The seller's listings now: the generated ones (minus deletions, with replacements) then the ones added later. */
export function currentListings(account: SellerAccount, state: RetailerStateRecord | undefined): RetailerListing[] {
  const overrides = state?.listings ?? {};
  const generated = new Set(account.listings.map((l) => l.sku));
  const kept = account.listings.flatMap((l) => {
    const override = overrides[l.sku];
    if (override === null) return [];
    return [override ?? l];
  });
  const added = Object.values(overrides).filter((l): l is RetailerListing => l !== null && !generated.has(l.sku));
  return [...kept, ...added];
}

/** One listing by SKU, honouring overrides; undefined when it never existed or was deleted. */
export function findListing(account: SellerAccount, state: RetailerStateRecord | undefined, sku: string): RetailerListing | undefined {
  const override = state?.listings[sku];
  if (override === null) return undefined;
  return override ?? account.listings.find((l) => l.sku === sku);
}

/** The state with a listing stored (or, with null, deleted); a new record, never a mutation. */
export function withListing(state: RetailerStateRecord, account: SellerAccount, sku: string, listing: RetailerListing | null, now: Date): RetailerStateRecord {
  const listings = { ...state.listings };
  const generated = account.listings.some((l) => l.sku === sku);
  if (listing === null && !generated) delete listings[sku];
  else listings[sku] = listing;
  return { ...state, listings, updated_at: now.toISOString() };
}

/** The state with one more feed. */
export function withFeed(state: RetailerStateRecord, feed: RetailerFeed, now: Date): RetailerStateRecord {
  return { ...state, feeds: [...state.feeds, feed], updated_at: now.toISOString() };
}
