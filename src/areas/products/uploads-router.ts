import { Router, type Request } from 'express';
import type { Config } from '../../config.js';
import type { World } from '../../world.js';
import { DEFAULT_WORKSPACE, type Worlds } from '../../worlds.js';
import { sniffImageType } from './rules/image-upload.js';
import { uploadStorageFor } from './uploads.js';

/**
 * The policy of every served file: it may load nothing and runs sandboxed (an opaque origin, no scripts), so a file
 * that is not an image, opened as a page, can neither run nor read the sandbox's origin (a docs tab's token).
 */
export const UPLOAD_POLICY = "default-src 'none'; sandbox";

/** The world an upload URL names: `?workspace=<id>` (as the image's `url` shows it), else the default world. */
function worldOf(req: Request, worlds: Worlds): World | undefined {
  const workspace = req.query.workspace;
  if (workspace === undefined || workspace === DEFAULT_WORKSPACE) return worlds.defaultWorld;
  // An image URL proves nothing about its visitor: looking it up does not keep the workspace alive.
  return typeof workspace === 'string' ? worlds.live(workspace)?.world : undefined;
}

/**
 * Serves uploaded product images back at the URL their image record shows
 * (`/_sandbox/uploads/product-images/{image}/{file}[?workspace=<id>]`). Outside the contract because the answer is
 * binary; without auth because browsers load it from an <img> tag. Only a file whose image record still names it
 * is served, so the files of deleted images (or of a reset world) are never reachable. A file is sent as the image
 * type its bytes are, never as the type its record declares; anything else is an `application/octet-stream`
 * download; all of it under UPLOAD_POLICY.
 */
export function productUploadsRouter(worlds: Worlds, config: Config): Router {
  const router = Router({ caseSensitive: true });
  router.get('/_sandbox/uploads/product-images/:image/:file', async (req, res) => {
    const world = worldOf(req, worlds);
    const { image: imageId, file } = req.params;
    const image = world?.store.collections.product_images.get(imageId);
    const key = `product-images/${imageId}/${file}`;
    const bytes = world && image?.storage_key === key ? await uploadStorageFor(world, config).read(key) : undefined;
    // The record may have gone while the file was read (a delete or reset in between): then it is not served.
    if (!image || !bytes || world?.store.collections.product_images.get(imageId)?.storage_key !== key) {
      res.status(404).json({ message: 'Not found.' });
      return;
    }
    const type = sniffImageType(bytes);
    res.set({
      'Content-Type': type ?? 'application/octet-stream',
      ...(type ? {} : { 'Content-Disposition': 'attachment' }),
      'Content-Security-Policy': UPLOAD_POLICY,
      'Content-Length': String(bytes.length),
      'Cache-Control': 'private, max-age=3600',
      'X-Content-Type-Options': 'nosniff',
    });
    res.status(200).end(bytes);
  });
  return router;
}
