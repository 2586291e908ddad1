import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';

// A shopping bag, 16 x 16: browsers ask every origin for /favicon.ico, and a 404 there reads like a fault.
const ART = [
  '................',
  '................',
  '.....######.....',
  '....##....##....',
  '....#......#....',
  '..############..',
  '..############..',
  '..############..',
  '..############..',
  '..############..',
  '..############..',
  '..############..',
  '..############..',
  '..############..',
  '................',
  '................',
];
const INK = { r: 0x25, g: 0x63, b: 0xeb }; // the docs banner's blue

/** An .ico holding one 32-bit bitmap of `art` ('#' ink, anything else transparent). */
export function icoFromArt(art: string[], ink = INK): Buffer {
  const size = art.length;
  const pixels = Buffer.alloc(size * size * 4);
  // Bitmaps run bottom-up, each pixel B, G, R, A.
  art.forEach((row, y) => {
    for (let x = 0; x < size; x++) {
      if (row[x] !== '#') continue;
      pixels.set([ink.b, ink.g, ink.r, 0xff], ((size - 1 - y) * size + x) * 4);
    }
  });
  const maskRowBytes = Math.ceil(size / 32) * 4;
  const mask = Buffer.alloc(maskRowBytes * size); // all 0: the alpha channel decides
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(size, 4);
  info.writeInt32LE(size * 2, 8); // colour rows then mask rows
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size, 6);
  header.writeUInt8(size, 7);
  header.writeUInt16LE(1, 10); // planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}

/** GET /favicon.ico: the icon, cacheable for a day, 304 when the browser holds it already. */
export function favicon(): RequestHandler {
  const body = icoFromArt(ART);
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  return (req, res, next) => {
    if (req.path !== '/favicon.ico' || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    res.set({ 'Content-Type': 'image/x-icon', 'Cache-Control': 'public, max-age=86400', ETag: etag });
    if (req.fresh) res.status(304).end();
    else res.end(body);
  };
}
