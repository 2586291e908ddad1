import type { Handlers } from '../handler-map.js';
import type { Ctx } from '../context.js';
import { unprocessable, type FieldErrors } from '../../http/errors.js';
import { byCreation, paginate } from '../../http/pagination.js';
import { created, failOn, noContent, ok } from '../../http/reply.js';
import { editRecord } from '../../store/edit-record.js';
import { addIdentifier } from './add-identifier.js';
import { deleteProductCascade } from './cascade.js';
import { presentProduct, presentProductIdentifier, presentProductImage, uploadsOrigin } from './present.js';
import type { ProductImageRecord, ProductRecord } from './records.js';
import { imageRefErrors } from './rules/image-refs.js';
import { safeFilename, uploadErrors, uploadStorageKey, uploadUrl } from './rules/image-upload.js';
import { filterProducts } from './rules/product-search.js';

/** 422 `sku` when another product of the merchant already uses it. */
function skuErrors(ctx: Ctx, merchantId: string, sku: string, selfId?: string): FieldErrors {
  const taken = ctx.store.products.where('sku', sku).some((p) => p.merchant_id === merchantId && p.id !== selfId);
  return taken ? { sku: ['The sku has already been taken.'] } : {};
}

export const productHandlers = {
  listProducts: ({ query }, ctx) => {
    // Ordered once between two writes of the products (a list read page after page), then filtered.
    const products = filterProducts(ctx.store.products.whereInOrder('merchant_id', query.merchant_id, byCreation), query);
    const page = paginate(products, query, ctx.url);
    return ok({ ...page, data: page.data.map((p) => presentProduct(p, ctx)) });
  },

  createProduct: ({ body }, ctx) => {
    failOn(skuErrors(ctx, body.merchant_id, body.sku));
    const product = ctx.store.products.insert(
      ctx.newRecord({
        merchant_id: body.merchant_id,
        sku: body.sku,
        title: body.title,
        main_image_id: null,
        thumbnail_image_id: null,
      }),
    );
    return created({ data: presentProduct(product, ctx) });
  },

  getProduct: ({ bound }, ctx) => ok({ data: presentProduct(bound.product, ctx) }),

  updateProduct: ({ bound: { product }, body }, ctx) => {
    const imageIds = new Set(ctx.store.product_images.where('product_id', product.id).map((i) => i.id));
    failOn({
      ...(body.sku !== undefined ? skuErrors(ctx, product.merchant_id, body.sku, product.id) : {}),
      ...imageRefErrors(body, imageIds),
    });
    const patch: Partial<ProductRecord> = {};
    if (body.sku !== undefined) patch.sku = body.sku;
    if (body.title !== undefined) patch.title = body.title;
    if (body.main_image_id !== undefined) patch.main_image_id = body.main_image_id;
    if (body.thumbnail_image_id !== undefined) patch.thumbnail_image_id = body.thumbnail_image_id;
    editRecord(ctx.store.products, product.id, patch, ctx.clock.nowIso());
    return noContent();
  },

  deleteProduct: ({ bound: { product } }, ctx) => {
    deleteProductCascade(ctx.store, product.id, ctx);
    return noContent();
  },

  listProductImages: ({ bound: { product }, query }, ctx) => {
    const images = ctx.store.product_images.where('product_id', product.id).sort(byCreation);
    const page = paginate(images, query, ctx.url);
    return ok({ ...page, data: page.data.map((i) => presentProductImage(i, ctx)) });
  },

  createProductImage: ({ bound: { product }, body, files }, ctx) => {
    const now = ctx.clock.nowIso();
    const id = ctx.newId();
    const base = { id, product_id: product.id, created_at: now, updated_at: now };
    let image: ProductImageRecord;
    if (body && 'url' in body && typeof body.url === 'string') {
      image = { ...base, url: body.url, filename: null, content_type: null, size: null, storage_key: null };
    } else {
      // multipart/form-data: multer has the file; a `file` sent as a text field arrives without one.
      const file = files.find((f) => f.fieldname === 'file');
      if (!file) unprocessable({ file: ['The file field must be a file.'] });
      const key = uploadStorageKey(id, file.originalname);
      image = {
        ...base,
        url: uploadUrl(uploadsOrigin(ctx), key),
        filename: safeFilename(file.originalname),
        content_type: file.mimetype.toLowerCase(),
        size: file.size,
        storage_key: key,
      };
      // The rules a bundle's files meet too (src/sandbox/bundle-uploads.ts).
      failOn(uploadErrors({ image, length: file.buffer.length, head: file.buffer }));
      // Written after every check: a refused upload leaves no file behind.
      ctx.uploads.write(key, file.buffer);
    }
    ctx.store.product_images.insert(image);
    return created({ data: presentProductImage(image, ctx) });
  },

  createProductIdentifier: ({ bound: { product }, body }, ctx) => {
    const identifier = addIdentifier(ctx, ctx.store.product_identifiers, 'product_id', product.id, body);
    return created({ data: presentProductIdentifier(identifier) });
  },

  deleteProductIdentifier: ({ bound }, ctx) => {
    ctx.store.product_identifiers.remove(bound.product_identifier.id);
    return noContent();
  },
} satisfies Partial<Handlers>;
