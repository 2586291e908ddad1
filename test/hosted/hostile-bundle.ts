// The bundle of finding 3 of issue 31, written as an attacker writes it: a real workspace's export (its images
// uploaded through the API as PNGs) with the image records and files swapped for what the attacker wants served.
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';

/** A 1x1 PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/** What one image of the bundle becomes. */
export interface PlantedFile {
  filename: string;
  contentType: string;
  bytes: Buffer;
  /** The record's `size` (default: the bytes' length). */
  size?: number;
  /** The record's storage key (default: the upload path's, `product-images/<image id>/<filename>`). */
  storageKey?: (imageId: string) => string;
}

type Image = Record<string, unknown> & { id: string; storage_key: string };
export type Bundle = Record<string, unknown> & {
  changes: { product_images: { added: Image[] } } & Record<string, unknown>;
  uploads: { key: string; base64: string }[];
};

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An exported workspace of the sandbox at `base` with one image per planted file, each swapped for that file. */
export async function bundleWithFiles(base: string, files: readonly PlantedFile[]): Promise<Bundle> {
  const created = await fetch(`${base}/_sandbox/workspaces`, { method: 'POST' });
  const ws = ((await created.json()) as { data: { id: string; tokens: { owner: string } } }).data;
  for (const _ of files) {
    const form = new FormData();
    form.append('file', new Blob([PNG], { type: 'image/png' }), 'photo.png');
    const res = await fetch(`${base}/2024-09/products/${DEMO_PRODUCT_ID}/images`, { method: 'POST', headers: bearer(ws.tokens.owner), body: form });
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  }
  const bundle = (await (await fetch(`${base}/_sandbox/workspaces/${ws.id}/export`, { headers: bearer(ws.tokens.owner) })).json()) as Bundle;
  const images = bundle.changes.product_images.added;
  files.forEach((file, i) => {
    const image = images[i]!;
    const upload = bundle.uploads.find((u) => u.key === image.storage_key)!;
    const key = file.storageKey?.(image.id) ?? `product-images/${image.id}/${file.filename}`;
    Object.assign(image, { filename: file.filename, content_type: file.contentType, size: file.size ?? file.bytes.length, storage_key: key });
    Object.assign(upload, { key, base64: file.bytes.toString('base64') });
  });
  return bundle;
}

/** The URL the sandbox serves a bundle's image file at, in the workspace `workspace`. */
export const fileUrl = (base: string, image: Image, workspace: string) => `${base}/_sandbox/uploads/${image.storage_key}?workspace=${workspace}`;
