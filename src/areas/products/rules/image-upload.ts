// Rules for an uploaded product image, however its file arrives: a multipart `file` (createProductImage) or a
// workspace bundle's file with the image record naming it (src/sandbox/bundle-uploads.ts). Both keep a file only
// when uploadErrors finds nothing, so a loaded world holds only files the upload path would have kept. Also where
// the bytes are kept and the URL the sandbox serves them back at (src/areas/products/uploads-router.ts).
import { FILE_TOO_LARGE_MESSAGE, MAX_FILE_BYTES } from '../../../http/body-limits.js';
import type { FieldErrors, ProductImageRecord } from '../record-types.js';

/** Media types accepted for an upload (what browsers and marketplaces display). */
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** One of IMAGE_CONTENT_TYPES. */
export type ImageContentType = (typeof IMAGE_CONTENT_TYPES)[number];

// Magic numbers: a client's declared content type is not trusted alone, so a renamed text file is refused.
const SIGNATURES: Record<ImageContentType, (b: Uint8Array) => boolean> = {
  'image/png': (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38,
  'image/webp': (b) => b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50,
};

/** How many of a file's first bytes the signatures read. */
export const SIGNATURE_BYTES = 12;

/** The image type a file's first bytes are, or undefined for anything else: what a served file is sent as. */
export function sniffImageType(head: Uint8Array): ImageContentType | undefined {
  return IMAGE_CONTENT_TYPES.find((type) => SIGNATURES[type](head));
}

/** An uploaded file as the rules read it: what its image record says of it, how long it is and its first bytes. */
export interface UploadedImageFile {
  image: Pick<ProductImageRecord, 'content_type' | 'size'>;
  /** The file's length in bytes. */
  length: number;
  /** At least its first SIGNATURE_BYTES bytes (the whole file will do). */
  head: Uint8Array;
}

const TYPE_MESSAGE = 'The file field must be a file of type: png, jpeg, gif, webp.';

/**
 * 422 errors for a file that is empty, past MAX_FILE_BYTES, not one of the accepted images or not the image it is
 * declared as, or whose record names another size than its length.
 */
export function uploadErrors({ image, length, head }: UploadedImageFile): FieldErrors {
  if (length === 0) return { file: ['The file failed to upload.'] };
  if (length > MAX_FILE_BYTES) return { file: [FILE_TOO_LARGE_MESSAGE] };
  const type = image.content_type?.toLowerCase() as ImageContentType | undefined;
  if (type === undefined || !IMAGE_CONTENT_TYPES.includes(type) || sniffImageType(head) !== type) return { file: [TYPE_MESSAGE] };
  // Where the file is kept (its storage key and file name) is the world's rule for every image (image-keys.ts).
  return image.size === length ? {} : { size: [`The size field must be the file's length, ${length} bytes.`] };
}

/** A file name safe to use in a path and a URL: keeps letters, digits, dot, dash and underscore; at most 100 characters. */
export function safeFilename(original: string): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(-100);
  return cleaned === '' ? 'image' : cleaned;
}

/** The storage key (relative to the uploads directory beside the data file) of an uploaded image. */
export function uploadStorageKey(imageId: string, filename: string): string {
  return `product-images/${imageId}/${safeFilename(filename)}`;
}

/** The absolute URL the sandbox serves an uploaded image at; a workspace's names it (an <img> sends no token). */
export function uploadUrl(baseUrl: string, storageKey: string, workspace?: string): string {
  const url = `${baseUrl.replace(/\/$/, '')}/_sandbox/uploads/${storageKey}`;
  return workspace === undefined ? url : `${url}?workspace=${encodeURIComponent(workspace)}`;
}
