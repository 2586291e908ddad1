// A bundle's files meet the rules of the upload path (uploadErrors, src/areas/products/rules/image-upload.ts): each
// is named by an image record of the bundle whose type and size the upload path would have given it, within the
// per-file limit, and its bytes are that image (where it is kept is the world's rule, image-keys.ts). Read from each file's base64 length and first
// bytes, before anything is decoded whole.
import type { ProductImageRecord } from '../areas/products/records.js';
import { SIGNATURE_BYTES, uploadErrors } from '../areas/products/rules/image-upload.js';
import type { WorkspaceBundle } from './bundle-format.js';

/** Base64 characters that hold at least SIGNATURE_BYTES bytes (4 characters per 3 bytes). */
const HEAD_CHARS = Math.ceil(SIGNATURE_BYTES / 3) * 4;

/** Each problem of the bundle's files, by field path (`uploads.<i>.<field>`), handed to `add`. */
export function uploadProblems(bundle: WorkspaceBundle, add: (path: string, message: string) => void): void {
  const images = new Map<string, ProductImageRecord>();
  const changes = bundle.changes.product_images;
  for (const record of [...(changes?.added ?? []), ...(changes?.changed ?? [])]) {
    const image = record as unknown as ProductImageRecord;
    if (typeof image.storage_key === 'string') images.set(image.storage_key, image);
  }
  bundle.uploads.forEach(({ key, base64 }, i) => {
    const image = images.get(key);
    // A file no image names is refused once the world is built (src/sandbox/load-bundle.ts names it).
    if (!image) return;
    const file = { image, length: Buffer.byteLength(base64, 'base64'), head: Buffer.from(base64.slice(0, HEAD_CHARS), 'base64') };
    for (const [field, messages] of Object.entries(uploadErrors(file))) for (const message of messages) add(`uploads.${i}.${field}`, message);
  });
}
