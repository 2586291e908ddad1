// A channel's changes at the simulated retailer are bounded where the retailer writes them (src/retailer/state-limits.ts);
// a loaded workspace bundle's world is held to the same bounds before it is served.
import { retailerStateProblems } from '../../retailer/index.js';
import type { Collections } from '../collections.js';
import type { WorldRuleBreach } from '../world-rules.js';

/** Retailer states holding more listings or feeds, or larger attributes, than the retailer keeps. */
export function retailerStateBreaches(store: Collections): WorldRuleBreach[] {
  return store.retailer_states
    .all()
    .flatMap((state) => retailerStateProblems(state).map(({ field, message }) => ({ collection: 'retailer_states', id: state.id, field, message })));
}
