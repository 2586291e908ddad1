// PUT product may point main_image_id / thumbnail_image_id only at that product's own images; the contract can
// check the uuid format but not ownership.
import type { FieldErrors } from '../record-types.js';

/** 422 field errors for image ids in an update that are not images of the product (null always passes: it clears). */
export function imageRefErrors(
  patch: { main_image_id?: string | null; thumbnail_image_id?: string | null },
  imageIdsOfProduct: ReadonlySet<string>,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const field of ['main_image_id', 'thumbnail_image_id'] as const) {
    const value = patch[field];
    if (value !== undefined && value !== null && !imageIdsOfProduct.has(value)) {
      errors[field] = [`The selected ${field.replaceAll('_', ' ')} is invalid.`];
    }
  }
  return errors;
}
