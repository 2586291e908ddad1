import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { startSandbox } from '../../src/start-sandbox.js';
import { contract } from '../helpers/app.js';

/** A real 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-reset-uploads-'));
const dataFile = join(dir, 'sandbox.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function upload(url: string): Promise<{ id: string; url: string }> {
  const form = new FormData();
  form.append('file', new Blob([PNG], { type: 'image/png' }), 'photo.png');
  const res = await fetch(`${url}/2024-09/products/${DEMO_PRODUCT_ID}/images`, {
    method: 'POST',
    headers: { Authorization: 'Bearer demo-owner-token' },
    body: form,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { id: string; url: string } }).data;
}

describe('uploaded files and --reset', () => {
  it('When the files sit in the shared uploads/ folder an earlier version kept beside the data file, then they are served from there, left in place by a reset', async () => {
    const legacyDir = mkdtempSync(join(tmpdir(), 'sandbox-legacy-uploads-'));
    try {
      const file = join(legacyDir, 'sandbox.json');
      const first = await startSandbox({ contract, store: 'file', dataFile: file });
      const image = await upload(first.url);
      await first.close();
      renameSync(`${file}.uploads`, join(legacyDir, 'uploads'));
      const kept = join(legacyDir, 'uploads', 'product-images', image.id, 'photo.png');

      const again = await startSandbox({ contract, store: 'file', dataFile: file });
      try {
        expect((await fetch(image.url.replace(/^http:\/\/[^/]+/, again.url))).status).toBe(200);
        expect(existsSync(kept)).toBe(true);
      } finally {
        await again.close();
      }
      // The shared folder may hold another data file's files: a reset of this one leaves it as it is.
      const reset = await startSandbox({ contract, store: 'file', dataFile: file, reset: true });
      await reset.close();
      expect(existsSync(kept)).toBe(true);
    } finally {
      rmSync(legacyDir, { recursive: true, force: true });
    }
  });

  it("When two data files share a folder and one is reseeded, then the other's uploaded images are still served", async () => {
    const other = join(dir, 'other.json');
    const keeper = await startSandbox({ contract, store: 'file', dataFile: other });
    const image = await upload(keeper.url);
    await keeper.close();

    const neighbour = await startSandbox({ contract, store: 'file', dataFile: join(dir, 'neighbour.json'), reset: true });
    await neighbour.close();

    const again = await startSandbox({ contract, store: 'file', dataFile: other });
    try {
      expect((await fetch(image.url.replace(/^http:\/\/[^/]+/, again.url))).status).toBe(200);
    } finally {
      await again.close();
    }
  });

  it('When the sandbox restarts on its file, then an uploaded image is still served; with --reset, its file is gone from disk too', async () => {
    const first = await startSandbox({ contract, store: 'file', dataFile });
    const image = await upload(first.url);
    const file = join(`${dataFile}.uploads`, 'product-images', image.id, 'photo.png');
    expect(existsSync(file)).toBe(true);
    await first.close();

    const again = await startSandbox({ contract, store: 'file', dataFile });
    const served = await fetch(image.url.replace(/^http:\/\/[^/]+/, again.url));
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    await again.close();

    const reset = await startSandbox({ contract, store: 'file', dataFile, reset: true });
    try {
      expect(existsSync(file)).toBe(false);
      const list = await fetch(`${reset.url}/2024-09/products/${DEMO_PRODUCT_ID}/images?per_page=100`, {
        headers: { Authorization: 'Bearer demo-owner-token' },
      });
      expect(list.status).toBe(200);
      expect(((await list.json()) as { data: { id: string }[] }).data.map((i) => i.id)).not.toContain(image.id);
      expect((await fetch(image.url.replace(/^http:\/\/[^/]+/, reset.url))).status).toBe(404);
      // A new upload after the reset is stored and served as usual.
      const next = await upload(reset.url);
      expect(existsSync(join(`${dataFile}.uploads`, 'product-images', next.id, 'photo.png'))).toBe(true);
    } finally {
      await reset.close();
    }
  });
});
