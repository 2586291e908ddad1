import { currentListings } from '../channel-state.js';
import { fnv1a } from '../../store/stable-hash.js';
import { invalidInput } from '../errors.js';
import { readListingAttributes } from '../listing-attributes.js';
import type { OperationContext, OperationOutcome, RetailerOperation } from '../operation.js';
import { decodeOffsetToken, encodePageToken } from '../page-token.js';
import { list, one } from '../query.js';
import { isResult, marketplaceIds } from './marketplace-param.js';

const PAGE_SIZE = 50;

/** FBA inventory summaries: the seller's listings fulfilled by the retailer, with live quantities. */
function getInventorySummaries(ctx: OperationContext): OperationOutcome {
  if (one(ctx.query, 'granularityType') !== 'Marketplace') return invalidInput('granularityType is required and must be Marketplace.');
  const granularityId = one(ctx.query, 'granularityId');
  if (!granularityId) return invalidInput('granularityId is required.');
  const ids = marketplaceIds(ctx, 'marketplaceIds');
  if (isResult(ids)) return ids;
  if (!ids.includes(granularityId)) return invalidInput('granularityId must be one of marketplaceIds.');
  const skus = list(ctx.query, 'sellerSkus');
  const details = one(ctx.query, 'details') === 'true';
  const token = one(ctx.query, 'nextToken');
  const offset = token === undefined ? 0 : decodeOffsetToken(token, ctx.channelId);
  if (offset === undefined) return invalidInput('Invalid nextToken.');
  const fba = currentListings(ctx.account, ctx.state).filter(
    (l) => readListingAttributes(l.attributes).fulfillment.startsWith('AMAZON') && (skus.length === 0 || skus.includes(l.sku)),
  );
  const page = fba.slice(offset, offset + PAGE_SIZE).map((l) => {
    const { name, quantity } = readListingAttributes(l.attributes);
    return {
      asin: l.asin ?? '',
      fnSku: `X00${(fnv1a(l.sku) % 0x1000000).toString(36).toUpperCase().padStart(7, '0')}`,
      sellerSku: l.sku,
      condition: 'NewItem',
      ...(details
        ? { inventoryDetails: { fulfillableQuantity: quantity, inboundWorkingQuantity: 0, inboundShippedQuantity: 0, inboundReceivingQuantity: 0 } }
        : {}),
      lastUpdatedTime: l.updated_at,
      productName: name ?? l.sku,
      totalQuantity: quantity,
    };
  });
  return {
    status: 200,
    body: {
      payload: { granularity: { granularityType: 'Marketplace', granularityId }, inventorySummaries: page },
      pagination: offset + PAGE_SIZE < fba.length ? { nextToken: encodePageToken(ctx.channelId, { o: offset + PAGE_SIZE }) } : {},
    },
  };
}

/** The FBA inventory API v1 operation. */
export const inventoryOperations: RetailerOperation[] = [
  { name: 'getInventorySummaries', method: 'GET', path: 'fba/inventory/v1/summaries', limit: { rate: 2, burst: 2 }, run: getInventorySummaries },
];
