import type { MembershipRecord } from '../merchants/records.js';
import type { Collections } from '../collections.js';
import type { UserRecord } from './records.js';

/** A user as the API shows it (the record has nothing secret: tokens live in their own collection). */
export function presentUser(user: UserRecord) {
  return { id: user.id, name: user.name, email: user.email, created_at: user.created_at, updated_at: user.updated_at };
}

/** A membership with its user, so a client can show who is in the merchant without another call per user. */
export function presentMembership(membership: MembershipRecord, store: Collections) {
  const user = store.users.get(membership.user_id)!;
  return { ...membership, user: presentUser(user) };
}
