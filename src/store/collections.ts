import { channelCollections } from '../areas/channels/records.js';
import { forecastingCollections } from '../areas/forecasting/records.js';
import { marketplaceCollections } from '../areas/marketplaces/records.js';
import { merchantCollections } from '../areas/merchants/records.js';
import { productCollections } from '../areas/products/records.js';
import { sourcingCollections } from '../areas/sourcing/records.js';
import { userCollections } from '../areas/users/records.js';

/**
 * Every collection of a world, gathered from the areas. The order here is the order of the data file, and the
 * order in which a merchant's records are deleted does not depend on it.
 */
export const collectionDefs = {
  ...userCollections,
  ...merchantCollections,
  ...marketplaceCollections,
  ...channelCollections,
  ...productCollections,
  ...sourcingCollections,
  ...forecastingCollections,
};
