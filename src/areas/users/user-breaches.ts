// The rules updateCurrentUser, createSandboxUser and inviteMerchantMember keep between users, held for a whole world:
// a loaded workspace bundle's world is held to them before it is served (world-rules.ts).
import type { Collections } from '../collections.js';
import { keyOf, repeatedKeys } from '../repeated-keys.js';
import type { WorldRuleBreach } from '../world-rules.js';

/**
 * Users whose email is not lower-cased as the API keeps it, or is another user's (in any case); a user who is a
 * member of one merchant twice; a merchant without an owner.
 */
export function userRuleBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  for (const user of store.users.all()) {
    if (user.email !== user.email.toLowerCase()) {
      breaches.push({
        collection: 'users',
        id: user.id,
        field: 'email',
        message: `User ${user.id}'s email ${user.email} is not lower-cased, as the API keeps every email.`,
      });
    }
  }
  for (const user of repeatedKeys(store.users.all(), (u) => u.email.toLowerCase())) {
    breaches.push({
      collection: 'users',
      id: user.id,
      field: 'email',
      message: `User ${user.id} has the email ${user.email} of another user; users have distinct emails.`,
    });
  }
  for (const m of repeatedKeys(store.memberships.all(), (m) => keyOf(m.merchant_id, m.user_id))) {
    breaches.push({
      collection: 'memberships',
      id: m.id,
      field: 'user_id',
      message: `Membership ${m.id} makes user ${m.user_id} a member of merchant ${m.merchant_id} again; a user is a member of a merchant once.`,
    });
  }
  // removeMerchantMember keeps a merchant's last owner, and createMerchant makes its creator the owner.
  const owned = new Set(store.memberships.all().flatMap((m) => (m.role === 'owner' ? [m.merchant_id] : [])));
  for (const merchant of store.merchants.all()) {
    if (!owned.has(merchant.id)) {
      breaches.push({
        collection: 'memberships',
        id: merchant.id,
        field: 'role',
        message: `The merchant ${merchant.id} has no owner; every merchant keeps one.`,
      });
    }
  }
  return breaches;
}
