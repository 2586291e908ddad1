import { describe, expect, it } from 'vitest';
import { safeFilename, uploadErrors, uploadStorageKey, uploadUrl } from '../../src/areas/products/rules/image-upload.js';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0]);
const webp = new Uint8Array([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]);
const text = new TextEncoder().encode('hello, not an image');

describe('uploadErrors', () => {
  it('When the file is a PNG, JPEG or WebP whose bytes match, then it passes', () => {
    expect(uploadErrors({ mimetype: 'image/png', size: png.length, buffer: png })).toEqual({});
    expect(uploadErrors({ mimetype: 'image/jpeg', size: jpeg.length, buffer: jpeg })).toEqual({});
    expect(uploadErrors({ mimetype: 'IMAGE/WEBP', size: webp.length, buffer: webp })).toEqual({});
  });
  it('When the content type is not an image, then it answers errors.file', () => {
    expect(uploadErrors({ mimetype: 'text/plain', size: text.length, buffer: text })).toHaveProperty('file');
  });
  it('When a text file claims to be a PNG, then its bytes give it away', () => {
    expect(uploadErrors({ mimetype: 'image/png', size: text.length, buffer: text })).toHaveProperty('file');
  });
  it('When the file is empty, then it answers errors.file', () => {
    expect(uploadErrors({ mimetype: 'image/png', size: 0, buffer: new Uint8Array() })).toHaveProperty('file');
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
