import { decodedOrAsWritten } from '../percent-decode.js';
import type { RateLimit } from './rate-limit.js';
import type { RetailerStateRecord } from './record-types.js';
import type { OperationResult, RetailerMethod, RetailerRequest } from './types.js';
import type { SellerAccount } from './seller-account-types.js';

/** Everything one retailer operation may read; it answers a result and, when it wrote, the new channel state. */
export interface OperationContext {
  channelId: string;
  /** The channel's own marketplace (from its connection data). */
  marketplaceId: string;
  account: SellerAccount;
  state: RetailerStateRecord | undefined;
  params: Record<string, string>;
  query: RetailerRequest['query'];
  body: unknown;
  now: Date;
  newId(): string;
}

/** An operation's answer plus the channel state to persist when it changed something. */
export interface OperationOutcome extends OperationResult {
  state?: RetailerStateRecord;
}

/** One operation of the seller API: method, path template (`{name}` captures a segment) and usage plan. */
export interface RetailerOperation {
  name: string;
  method: RetailerMethod;
  path: string;
  limit: RateLimit;
  run(ctx: OperationContext): OperationOutcome;
}

/** The operation matching the call and its captured path parameters, or undefined (the retailer's 404). */
export function matchOperation(
  operations: readonly RetailerOperation[],
  method: RetailerMethod,
  path: string,
): { operation: RetailerOperation; params: Record<string, string> } | { pathKnown: boolean } {
  const segments = path.split('/');
  let pathKnown = false;
  for (const operation of operations) {
    const template = operation.path.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = template.every((t, i) => {
      // Percent-decoded, as the real API decodes its path parameters (its docs ask for a listing's `sku` URL-encoded,
      // since a SKU may hold a space or a `/`); a parameter that does not decode is taken as written.
      if (t.startsWith('{') && t.endsWith('}')) return (params[t.slice(1, -1)] = decodedOrAsWritten(segments[i]!)).length > 0;
      return t === segments[i];
    });
    if (!matches) continue;
    if (operation.method === method) return { operation, params };
    pathKnown = true;
  }
  return { pathKnown };
}
