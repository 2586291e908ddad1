// Shapes of the stored product records (plain JSON, snake_case, ISO timestamps). records.ts declares the collections
// over these; kept apart so pure rules and seed generators need no store import.
import type { components } from '../../contract/generated.js';

/** A product as stored; `identifiers` and the image URLs are joined in at presentation time, never stored twice. */
export interface ProductRecord {
  id: string;
  merchant_id: string;
  sku: string;
  title: string;
  main_image_id: string | null;
  thumbnail_image_id: string | null;
  created_at: string;
  updated_at: string;
}

/** An identifier of a product; its own collection so DELETE /products/identifiers/{id} is a direct lookup. */
export interface ProductIdentifierRecord {
  id: string;
  product_id: string;
  type: IdentifierType;
  value: string;
  created_at: string;
  updated_at: string;
}

/**
 * An image of a product. `storage_key` is set only for uploaded files (where the bytes live beside the data
 * file); it is internal and never presented.
 */
export interface ProductImageRecord {
  id: string;
  product_id: string;
  url: string;
  filename: string | null;
  content_type: string | null;
  size: number | null;
  storage_key: string | null;
  created_at: string;
  updated_at: string;
}

/** The identifier kinds the spec allows (UPC, EAN, GTIN, ISBN). */
export type IdentifierType = components['schemas']['IdentifierType'];

export type { FieldErrors } from '../../http/errors.js';
