import type { components } from '../../contract/document/generated.js';
import { defineCollection } from '../../store/collection.js';

/** A user as stored; presented as is. */
export type UserRecord = components['schemas']['User'];

/**
 * A bearer token; the id is the token itself so authentication is one Map lookup. Internal: no schema shows a
 * token record (the sandbox user endpoint answers the token string only).
 */
export interface TokenRecord {
  id: string;
  user_id: string;
  created_at: string;
}

export const userCollections = {
  users: defineCollection<UserRecord>({ indexes: ['email'] }),
  tokens: defineCollection<TokenRecord>({ indexes: ['user_id'] }),
};
