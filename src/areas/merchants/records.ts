import { defineCollection } from '../../store/collection.js';

export interface MerchantRecord {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export type MembershipRole = 'owner' | 'member';

export interface MembershipRecord {
  id: string;
  merchant_id: string;
  user_id: string;
  role: MembershipRole;
  created_at: string;
  updated_at: string;
}

export const merchantCollections = {
  merchants: defineCollection<MerchantRecord>(),
  memberships: defineCollection<MembershipRecord>({ indexes: ['merchant_id', 'user_id'] }),
};
