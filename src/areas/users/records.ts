import { defineCollection } from '../../store/collection.js';

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  created_at: string;
  updated_at: string;
}

/** A bearer token; the id is the token itself so authentication is one Map lookup. */
export interface TokenRecord {
  id: string;
  user_id: string;
  created_at: string;
}

export const userCollections = {
  users: defineCollection<UserRecord>({ indexes: ['email'] }),
  tokens: defineCollection<TokenRecord>({ indexes: ['user_id'] }),
};
