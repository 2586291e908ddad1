import { participations } from '../marketplaces.js';
import type { OperationContext, OperationOutcome, RetailerOperation } from '../operation.js';

/** The marketplaces the seller participates in, its own first. */
function getMarketplaceParticipations(ctx: OperationContext): OperationOutcome {
  return {
    status: 200,
    body: {
      payload: participations(ctx.marketplaceId).map((marketplace) => ({
        marketplace,
        participation: { isParticipating: true, hasSuspendedListings: false },
        storeName: ctx.account.store_name,
      })),
    },
  };
}

/** The sellers API v1 operation. */
export const sellerOperations: RetailerOperation[] = [
  {
    name: 'getMarketplaceParticipations',
    method: 'GET',
    path: 'sellers/v1/marketplaceParticipations',
    limit: { rate: 0.016, burst: 15 },
    run: getMarketplaceParticipations,
  },
];
