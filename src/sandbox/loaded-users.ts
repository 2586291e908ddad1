// The users a loaded run made with POST /_sandbox/users: a bundle carries them (ids, names, emails, memberships) and
// never a token, so loading the run into the default world (--load) issues each a token, the way
// POST /_sandbox/users/{user}/tokens does, and the start banner lists them: the run's requests can be replayed as
// the user who sent them.
import type { World } from '../world.js';
import type { WorkspaceBundle } from './bundle-format.js';
import { issueToken } from './world-handlers.js';

/** A user the loaded run made, with the token issued for them at load. */
export interface LoadedUser {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** Issues a token for each user the bundle added to the world that no token acts as yet (one transaction). */
export function tokensForRunUsers(world: World, bundle: WorkspaceBundle): Promise<LoadedUser[]> {
  const { users, tokens } = world.store.collections;
  const added = (bundle.changes.users?.added ?? []) as { id: string }[];
  const withToken = new Set(tokens.all().map((t) => t.user_id));
  const now = world.clock.nowIso();
  return world.store.transact(() =>
    added.flatMap(({ id }) => {
      const user = users.get(id);
      if (!user || withToken.has(id)) return [];
      return [{ id, name: user.name, email: user.email, token: issueToken(tokens, world, id, now) }];
    }),
  );
}
