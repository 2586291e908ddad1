// Shapes of the stored product records (plain JSON, snake_case, ISO timestamps), taken from the contract's schemas.
// records.ts declares the collections over these; kept apart so pure rules and seed generators need no store import.
import type { components } from '../../contract/document/generated.js';

type Schemas = components['schemas'];

/** A product as stored; `identifiers` and the image URLs are joined in at presentation time, never stored twice. */
export type ProductRecord = Omit<Schemas['Product'], 'identifiers' | 'main_image_url' | 'thumbnail_image_url'>;

/** An identifier of a product; its own collection so DELETE /products/identifiers/{id} is a direct lookup. */
export type ProductIdentifierRecord = Schemas['ProductIdentifier'];

/**
 * An image of a product. `storage_key` is set only for uploaded files (where the bytes live beside the data
 * file); it is internal and never presented.
 */
export type ProductImageRecord = Schemas['ProductImage'] & { storage_key: string | null };

/** The identifier kinds the spec allows (UPC, EAN, GTIN, ISBN). */
export type IdentifierType = Schemas['IdentifierType'];

export type { FieldErrors } from '../../http/errors.js';
