import type { components } from '../../contract/document/generated.js';
import { defineCollection } from '../../store/collection.js';

type Schemas = components['schemas'];

/** A merchant as stored; presented as is. */
export type MerchantRecord = Schemas['Merchant'];

/** A membership as stored; its `user` is joined in from the users collection at presentation. */
export type MembershipRecord = Omit<Schemas['MerchantMembership'], 'user'>;

export type MembershipRole = MembershipRecord['role'];

export const merchantCollections = {
  merchants: defineCollection<MerchantRecord>(),
  memberships: defineCollection<MembershipRecord>({ indexes: ['merchant_id', 'user_id'] }),
};
