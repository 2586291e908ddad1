import { catalogOperations } from './api/catalog.js';
import { feedOperations } from './api/feeds.js';
import { inventoryOperations } from './api/inventory.js';
import { listingOperations } from './api/listings.js';
import { orderOperations } from './api/orders.js';
import { sellerOperations } from './api/sellers.js';
import type { RetailerOperation } from './operation.js';

/** Every operation of the simulated seller API; a path outside this list is the retailer's 404. */
export const RETAILER_OPERATIONS: readonly RetailerOperation[] = [
  ...orderOperations,
  ...catalogOperations,
  ...listingOperations,
  ...inventoryOperations,
  ...sellerOperations,
  ...feedOperations,
];
