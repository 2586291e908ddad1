import type { MembershipRecord, MerchantRecord } from './merchants/records.js';
import type { UserRecord } from './users/records.js';
import type { Collections } from './collections.js';
import { forbidden, notFound } from '../http/errors.js';

/**
 * Permission is membership: the caller sees and changes a merchant, and everything it owns, only as a member.
 * Unknown merchant -> 404; known but not a member -> 403 (the error handler answers 404 where the operation
 * documents no 403). The records a request names are checked with it before validation (src/access/bind-resources.ts);
 * handlers use it for their own rules (only an owner may delete a merchant).
 */
export class Access {
  constructor(
    private readonly store: Collections,
    private readonly caller: UserRecord,
  ) {}

  /** The caller's membership in the merchant, if any. */
  membership(merchantId: string): MembershipRecord | undefined {
    return this.store.memberships.where('user_id', this.caller.id).find((m) => m.merchant_id === merchantId);
  }

  /** The merchant, when the caller is one of its members. */
  member(merchantId: string): MerchantRecord {
    const merchant = this.store.merchants.get(merchantId) ?? notFound('merchant');
    if (!this.membership(merchantId)) forbidden();
    return merchant;
  }

  /** The merchant, when the caller is one of its owners. */
  owner(merchantId: string): MerchantRecord {
    const merchant = this.member(merchantId);
    if (this.membership(merchantId)?.role !== 'owner') forbidden('Only an owner of the merchant may do this.');
    return merchant;
  }
}
