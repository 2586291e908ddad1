// Where an uploaded image's bytes are kept follows from the image: its id and the file name the upload cleaned
// (image-upload.ts makes both). A loaded workspace bundle's world is held to it before it is served, so a bundle
// names no file outside the uploads folder.
import type { Collections } from '../collections.js';
import type { WorldRuleBreach } from '../world-rules.js';
import { safeFilename, uploadStorageKey } from './rules/image-upload.js';

/** Images whose storage key is not the one the upload would have given them. */
export function imageKeyBreaches(store: Collections): WorldRuleBreach[] {
  const breaches: WorldRuleBreach[] = [];
  for (const image of store.product_images.all()) {
    if (image.storage_key === null) continue;
    const filename = image.filename ?? '';
    const expected = uploadStorageKey(image.id, filename);
    if (filename !== safeFilename(filename) || image.storage_key !== expected) {
      breaches.push({
        collection: 'product_images',
        id: image.id,
        field: 'storage_key',
        message: `Image ${image.id} keeps its file at ${JSON.stringify(image.storage_key)}; an upload named ${JSON.stringify(filename)} keeps it at ${expected}.`,
      });
    }
  }
  return breaches;
}
