/**
 * Records of the simulated retailer, as stored (plain JSON, snake_case, ISO strings). Kept apart from
 * records.ts so the pure retailer logic and its tests never load the store.
 */

/** A seller listing (listings API 2021-08-01); name, price and quantity are read from its attributes. */
export interface RetailerListing {
  sku: string;
  asin: string | null;
  product_type: string;
  attributes: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

/** A feed submitted through `feeds/2021-06-30/feeds`; its processing status is derived from the clock. */
export interface RetailerFeed {
  feed_id: string;
  feed_type: string;
  marketplace_ids: string[];
  input_feed_document_id: string;
  created_at: string;
}

/**
 * What a channel changed at the retailer. The generated seller account plus these overrides is the retailer's current
 * state, so the seeded store stays small and a channel that never writes stores nothing. id = channel id.
 */
export interface RetailerStateRecord {
  id: string;
  channel_id: string;
  /** sku -> listing as now stored; null marks a generated listing that was deleted. */
  listings: Record<string, RetailerListing | null>;
  feeds: RetailerFeed[];
  updated_at: string;
}

/** The tokens the retailer currently honours for a channel (secrets: redact in every log and journal). id = channel id. */
export interface RetailerGrantRecord {
  id: string;
  channel_id: string;
  access_token: string;
  access_token_expires_at: string;
  refresh_token: string;
  issued_at: string;
}

/**
 * One run of the authorization-URL flow, keyed by its `state`: issued by get-auth-url (bound to channel and
 * caller), decided on the consent page (a code is issued on approval), completed by the callback.
 * Expiry is derived from the clock, never stored as a status.
 */
export interface RetailerAuthorizationRecord {
  id: string;
  channel_id: string;
  user_id: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
  decision: 'approved' | 'denied' | null;
  decided_at: string | null;
  /** Secret until exchanged; single-use. */
  code: string | null;
  code_expires_at: string | null;
  exchanged_at: string | null;
}
