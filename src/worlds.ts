import type { UserRecord } from './areas/users/records.js';
import type { World } from './world.js';

/** Who a bearer token belongs to, and in which world. */
export interface Authenticated {
  world: World;
  user: UserRecord;
}

/** The worlds the server serves and how a token finds its world. */
export class Worlds {
  /** When this server started serving, for the health answer. */
  readonly startedAt = new Date().toISOString();

  constructor(readonly main: World) {}

  /** The world and user of a bearer token, or undefined for a token no world knows. */
  authenticate(token: string): Authenticated | undefined {
    const world = this.main;
    const record = world.store.collections.tokens.get(token);
    const user = record && world.store.collections.users.get(record.user_id);
    return user ? { world, user } : undefined;
  }

  /** Flushes and releases every world's persistence. */
  async close(): Promise<void> {
    await this.main.store.persistence.close();
  }
}
