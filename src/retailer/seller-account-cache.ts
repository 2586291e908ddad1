import { generateSellerAccount } from './seller-account.js';
import type { SellerAccount } from './seller-account-types.js';

/**
 * Worlds are materialised on first use and kept, bounded, because generating one costs a few milliseconds and
 * a relay call should not. Generated data is immutable, so sharing it is safe.
 */
export class SellerAccountCache {
  private readonly accounts = new Map<string, SellerAccount>();

  constructor(
    private readonly seed: number,
    private readonly refDate: Date,
    private readonly capacity = 256,
  ) {}

  get(channelId: string): SellerAccount {
    const cached = this.accounts.get(channelId);
    if (cached) return cached;
    const account = generateSellerAccount(this.seed, channelId, this.refDate);
    if (this.accounts.size >= this.capacity) this.accounts.delete(this.accounts.keys().next().value!);
    this.accounts.set(channelId, account);
    return account;
  }

  forget(channelId: string): void {
    this.accounts.delete(channelId);
  }
}
