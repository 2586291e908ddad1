// Rules for an uploaded product image (multipart `file`): which files are images, where the bytes are kept and
// the URL the sandbox serves them back at. The serving route and the writing of bytes are wave 2's.
import type { FieldErrors } from '../record-types.js';

/** Media types accepted for an upload (what browsers and marketplaces display). */
export const IMAGE_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

// Magic numbers: a client's declared content type is not trusted alone, so a renamed text file is refused.
const SIGNATURES: Record<(typeof IMAGE_CONTENT_TYPES)[number], (b: Uint8Array) => boolean> = {
  'image/png': (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38,
  'image/webp': (b) => b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50,
};

/** 422 `file` errors for an upload that is empty, not one of the accepted images, or whose bytes are not that image. */
export function uploadErrors(file: { mimetype: string; size: number; buffer: Uint8Array }): FieldErrors {
  const type = file.mimetype.toLowerCase() as (typeof IMAGE_CONTENT_TYPES)[number];
  if (file.size === 0) return { file: ['The file failed to upload.'] };
  if (!IMAGE_CONTENT_TYPES.includes(type) || !SIGNATURES[type](file.buffer)) {
    return { file: ['The file field must be a file of type: png, jpeg, gif, webp.'] };
  }
  return {};
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
