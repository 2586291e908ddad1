import type { AreaSeedContext } from '../collections.js';
import { loadFixture } from '../../store/fixtures.js';
import type { TokenRecord, UserRecord } from './records.js';

/** The demo users with their fixed tokens, then faker users who own the background merchants. */
export function seedUsers(s: AreaSeedContext): void {
  const fixture = loadFixture<{ users: UserRecord[]; tokens: TokenRecord[] }>('identity');
  for (const user of fixture.users) s.store.users.insert(user);
  for (const token of fixture.tokens) s.store.tokens.insert(token);
  for (let i = 0; i < 6; i++) {
    const firstName = s.faker.person.firstName();
    const lastName = s.faker.person.lastName();
    const created = s.faker.date.past({ years: 1 }).toISOString();
    s.store.users.insert({
      id: s.faker.string.uuid(),
      name: `${firstName} ${lastName}`,
      email: s.faker.internet.email({ firstName, lastName, provider: 'example.com' }).toLowerCase(),
      created_at: created,
      updated_at: created,
    });
  }
}
