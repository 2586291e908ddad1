import { defineCollection } from '../../store/collection.js';
import type { ProductIdentifierRecord, ProductImageRecord, ProductRecord } from './record-types.js';

export type { ProductIdentifierRecord, ProductImageRecord, ProductRecord } from './record-types.js';

/** The products area's collections: identifiers and images live apart so their own operations are direct lookups. */
export const productCollections = {
  products: defineCollection<ProductRecord>({ indexes: ['merchant_id', 'sku'] }),
  product_identifiers: defineCollection<ProductIdentifierRecord>({ indexes: ['product_id'] }),
  product_images: defineCollection<ProductImageRecord>({ indexes: ['product_id'] }),
};
