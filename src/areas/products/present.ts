import type { Ctx } from '../context.js';
import type { ProductIdentifierRecord, ProductImageRecord, ProductRecord } from './records.js';
import { uploadUrl } from './rules/image-upload.js';
import { workspaceIdOf } from '../../world.js';

/** What presenters read from the request context: the collections, the origin absolute URLs point at, the world. */
export type PresentCtx = Pick<Ctx, 'store' | 'baseUrl' | 'world' | 'config'>;

/** An identifier as the API shows it (the record has exactly the contract's fields). */
export function presentProductIdentifier(identifier: ProductIdentifierRecord) {
  const { id, product_id, type, value, created_at, updated_at } = identifier;
  return { id, product_id, type, value, created_at, updated_at };
}

/**
 * The origin uploaded files are served from: UPLOADS_ORIGIN when set (another site, so a file never runs as the
 * sandbox's own pages), else the origin of the request's other absolute URLs.
 */
export const uploadsOrigin = (ctx: Pick<Ctx, 'baseUrl' | 'config'>): string => ctx.config.uploadsOrigin ?? ctx.baseUrl;

/** The URL an image is shown at: an uploaded file's is the sandbox's own address of it (on UPLOADS_ORIGIN when set). */
export function imageUrl(image: ProductImageRecord, ctx: PresentCtx): string {
  return image.storage_key ? uploadUrl(uploadsOrigin(ctx), image.storage_key, workspaceIdOf(ctx.world)) : image.url;
}

/** An image without its internal storage key. */
export function presentProductImage(image: ProductImageRecord, ctx: PresentCtx) {
  const { id, product_id, filename, content_type, size, created_at, updated_at } = image;
  return { id, product_id, url: imageUrl(image, ctx), filename, content_type, size, created_at, updated_at };
}

/** A product with its current identifiers (in the order they were added) and the URLs of its main and thumbnail images. */
export function presentProduct(product: ProductRecord, ctx: PresentCtx) {
  const urlOf = (imageId: string | null) => {
    const image = imageId ? ctx.store.product_images.get(imageId) : undefined;
    return image ? imageUrl(image, ctx) : null;
  };
  return {
    id: product.id,
    merchant_id: product.merchant_id,
    sku: product.sku,
    title: product.title,
    identifiers: ctx.store.product_identifiers.where('product_id', product.id).map(presentProductIdentifier),
    main_image_id: product.main_image_id,
    main_image_url: urlOf(product.main_image_id),
    thumbnail_image_id: product.thumbnail_image_id,
    thumbnail_image_url: urlOf(product.thumbnail_image_id),
    created_at: product.created_at,
    updated_at: product.updated_at,
  };
}
