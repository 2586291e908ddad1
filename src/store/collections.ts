import { merchantCollections } from '../areas/merchants/records.js';
import { userCollections } from '../areas/users/records.js';

/**
 * Every collection of a world, gathered from the areas. The order here is the order of the data file, and the
 * order in which a merchant's records are deleted does not depend on it.
 */
export const collectionDefs = {
  ...userCollections,
  ...merchantCollections,
};
