import type { AreaSeedContext } from '../collections.js';
import { loadFixture } from '../../store/fixtures.js';
import type { MembershipRecord, MerchantRecord } from './records.js';

/** The demo and rival merchants from fixtures, then one faker merchant per faker user, owned by that user. */
export function seedMerchants(s: AreaSeedContext): void {
  const fixture = loadFixture<{ users: { id: string }[]; merchants: MerchantRecord[]; memberships: MembershipRecord[] }>('identity');
  for (const merchant of fixture.merchants) s.store.merchants.insert(merchant);
  for (const membership of fixture.memberships) s.store.memberships.insert(membership);
  const fixtureUserIds = new Set(fixture.users.map((u) => u.id));
  for (const user of s.store.users.all().filter((u) => !fixtureUserIds.has(u.id))) {
    const created = s.faker.date.between({ from: user.created_at, to: s.refDate }).toISOString();
    const merchant = s.store.merchants.insert({
      id: s.faker.string.uuid(),
      name: s.faker.company.name(),
      created_at: created,
      updated_at: created,
    });
    s.store.memberships.insert({
      id: s.faker.string.uuid(),
      merchant_id: merchant.id,
      user_id: user.id,
      role: 'owner',
      created_at: created,
      updated_at: created,
    });
  }
}
