import { describe, expect, it } from 'vitest';
import { MAX_FILE_BYTES } from '../../src/http/body-limits.js';
import {
  safeFilename,
  sniffImageType,
  type UploadedImageFile,
  uploadErrors,
  uploadStorageKey,
  uploadUrl,
} from '../../src/areas/products/rules/image-upload.js';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
const webp = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]);
const text = new TextEncoder().encode('hello, not an image');

/** A file as the upload path keeps it: its record names its type and size. */
function uploaded(contentType: string, bytes: Uint8Array, image: Partial<UploadedImageFile['image']> = {}): UploadedImageFile {
  return {
    image: { content_type: contentType, size: bytes.length, ...image },
    length: bytes.length,
    head: bytes,
  };
}

describe('uploadErrors', () => {
  it('When the file is a PNG, JPEG or WebP whose bytes match, then it passes', () => {
    expect(uploadErrors(uploaded('image/png', png))).toEqual({});
    expect(uploadErrors(uploaded('image/jpeg', jpeg))).toEqual({});
    expect(uploadErrors(uploaded('IMAGE/WEBP', webp))).toEqual({});
  });
  it('When the content type is not an image, then it answers errors.file', () => {
    expect(uploadErrors(uploaded('text/plain', text))).toHaveProperty('file');
    expect(uploadErrors(uploaded('text/html', text))).toHaveProperty('file');
  });
  it('When a text file claims to be a PNG, or a PNG claims to be a JPEG, then its bytes give it away', () => {
    expect(uploadErrors(uploaded('image/png', text))).toHaveProperty('file');
    expect(uploadErrors(uploaded('image/jpeg', png))).toHaveProperty('file');
  });
  it('When the file is empty or past 5 MiB, then it answers errors.file', () => {
    expect(uploadErrors(uploaded('image/png', new Uint8Array()))).toHaveProperty('file');
    expect(uploadErrors({ ...uploaded('image/png', png), length: MAX_FILE_BYTES + 1 })).toEqual({ file: ['The uploaded file is larger than 5 MiB.'] });
    expect(uploadErrors({ ...uploaded('image/png', png, { size: MAX_FILE_BYTES }), length: MAX_FILE_BYTES })).toEqual({});
  });
  it('When the record names another size than the file’s length, then it answers errors.size', () => {
    expect(uploadErrors(uploaded('image/png', png, { size: 3 }))).toEqual({ size: ["The size field must be the file's length, 8 bytes."] });
  });
});

describe('sniffImageType', () => {
  it('When the bytes start like an image, then that type; anything else, undefined', () => {
    expect(sniffImageType(png)).toBe('image/png');
    expect(sniffImageType(webp)).toBe('image/webp');
    expect(sniffImageType(text)).toBeUndefined();
    expect(sniffImageType(new TextEncoder().encode('<html><script>'))).toBeUndefined();
  });
});

describe('upload paths', () => {
  it('When a file name carries a path or odd characters, then only a safe base name is kept', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\Users\\me\\My Photo (1).png')).toBe('My-Photo-1-.png');
    expect(safeFilename('.hidden')).toBe('hidden');
    expect(safeFilename('')).toBe('image');
  });
  it('When an upload is stored, then its URL is the sandbox origin plus its storage key', () => {
    const key = uploadStorageKey('d2d2d2d2-d2d2-4d2d-8d2d-d2d2d2d2d002', 'tent thumb.png');
    expect(key).toBe('product-images/d2d2d2d2-d2d2-4d2d-8d2d-d2d2d2d2d002/tent-thumb.png');
    expect(uploadUrl('http://127.0.0.1:4010/', key)).toBe(
      'http://127.0.0.1:4010/_sandbox/uploads/product-images/d2d2d2d2-d2d2-4d2d-8d2d-d2d2d2d2d002/tent-thumb.png',
    );
  });
});
