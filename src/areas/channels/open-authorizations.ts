// The authorizations get-auth-url starts for a channel: each call adds one, so a channel keeps only its newest
// usable ones (a loop of get-auth-url calls cannot grow the store without end); a loaded workspace bundle's world is
// held to the same bound before it is served.
import type { Collections } from '../collections.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { channelsPastBound } from './per-channel-bound.js';

/** How many authorizations a channel keeps open at once; starting one more drops the oldest. */
export const OPEN_AUTHORIZATIONS_LIMIT = 20;

/**
 * Makes room for one more authorization of the channel: drops the ones that can no longer be used (expired, or
 * decided and spent) and, past the limit, the oldest of the rest, whose links then show the "not known" page.
 */
export function makeRoomForAuthorization(store: Collections, channelId: string, now: Date): void {
  const past = (at: string | null) => at === null || Date.parse(at) <= now.getTime();
  const open = [];
  for (const auth of store.retailer_authorizations.where('channel_id', channelId)) {
    const spent = auth.decision === null ? past(auth.expires_at) : auth.exchanged_at !== null || past(auth.code_expires_at);
    if (spent) store.retailer_authorizations.remove(auth.id);
    else open.push(auth);
  }
  open.sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const oldest of open.slice(0, Math.max(0, open.length - (OPEN_AUTHORIZATIONS_LIMIT - 1)))) store.retailer_authorizations.remove(oldest.id);
}

/** Channels holding more authorizations than get-auth-url keeps. */
export function openAuthorizationBreaches(store: Collections): WorldRuleBreach[] {
  return channelsPastBound(
    store.retailer_authorizations.all(),
    OPEN_AUTHORIZATIONS_LIMIT,
    'retailer_authorizations',
    (channel, held) => `Channel ${channel} has ${held} authorizations; get-auth-url keeps the newest ${OPEN_AUTHORIZATIONS_LIMIT}.`,
  );
}
