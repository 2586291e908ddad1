// Issue 31, finding 3 in a real browser: a bundle's HTML page, served on the sandbox's origin, loaded a bundle
// script (CSP 'self' admitted it), and a docs tab that followed a link to the page ran it; the script read the tab's
// owner token from sessionStorage. Now the bundle is refused, and a file already stored that is not an image is a
// download under `default-src 'none'; sandbox`: no script of it runs, and it could not read the origin's storage.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { uploadStorageFor } from '../../src/areas/products/uploads.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';
import { bundleWithFiles } from './hostile-bundle.js';
import { ADMIN } from './support.js';

const PUBLIC = 'http://sandbox.example.test';
/** What the planted script writes where the test can read it: the docs tab's kept workspace, owner token included. */
const STEAL = 'document.title = "stolen:" + sessionStorage.getItem("sandbox-workspace");';

/** The attacker's page: it loads the planted script from the sandbox's own origin (`script-src 'self'`). */
const page = (scriptPath: string) => Buffer.from(`<!doctype html><title>innocent</title><script src="${scriptPath}"></script>`);

async function openDocs(tab: Page): Promise<string> {
  await tab.goto(`${PUBLIC}/docs/`);
  await tab.locator('body[data-sandbox-workspace]').waitFor({ state: 'attached', timeout: 20_000 });
  const kept = await tab.evaluate(() => sessionStorage.getItem('sandbox-workspace'));
  return (JSON.parse(kept!) as { tokens: { owner: string } }).tokens.owner;
}

/** The docs tab follows a link to `url`, as a visitor clicking it would; what the tab's title then says. */
async function follow(tab: Page, url: string): Promise<string> {
  // A download (an attachment) aborts the navigation: the tab stays where it was.
  await tab.goto(url).catch(() => undefined);
  // Time for a loaded script to have run: the page's own load event, then one more turn.
  await tab.waitForLoadState('load').catch(() => undefined);
  return tab.title();
}

describeWithBrowser('hosted mode: a bundle file never runs on the sandbox’s origin', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent', hosted: true, adminToken: ADMIN, publicUrl: PUBLIC, workspaceCreatePerMinute: 100 });
    browser = await launchBrowser([`--host-resolver-rules=MAP ${new URL(PUBLIC).host} ${new URL(sandbox.url).host}`]);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('When bundles carry a script and an HTML page as images, then a docs tab following the link runs nothing, and both are refused', async () => {
    const token = await openDocs(browser.page);
    const load = async (body: object) => {
      const res = await fetch(`${sandbox.url}/_sandbox/workspaces`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, id: res.ok ? ((await res.json()) as { data: { id: string } }).data.id : 'none' };
    };
    // The first bundle plants the script; the second the page that loads it from the first one's workspace.
    const scriptBundle = await bundleWithFiles(sandbox.url, [{ filename: 'x.js', contentType: 'text/javascript', bytes: Buffer.from(STEAL) }]);
    const script = await load(scriptBundle);
    const scriptPath = `/_sandbox/uploads/${scriptBundle.changes.product_images.added[0]!.storage_key}?workspace=${script.id}`;
    const pageBundle = await bundleWithFiles(sandbox.url, [{ filename: 'x.html', contentType: 'text/html', bytes: page(scriptPath) }]);
    const attack = await load(pageBundle);
    const title = await follow(browser.page, `${PUBLIC}/_sandbox/uploads/${pageBundle.changes.product_images.added[0]!.storage_key}?workspace=${attack.id}`);
    expect(title).not.toContain(token);
    expect(title.startsWith('stolen:')).toBe(false);
    expect([script.status, attack.status]).toEqual([422, 422]);
  }, 120_000);

  it('When such files are already stored (a data file of an earlier version), then the page is a download and its script never runs', async () => {
    const token = await openDocs(browser.page);
    const world = sandbox.worlds.defaultWorld;
    const now = new Date().toISOString();
    const ids = { script: '0f5a2c4e-6b8d-4f0a-9c2e-4b6d8f0a2c41', html: '0f5a2c4e-6b8d-4f0a-9c2e-4b6d8f0a2c42' };
    const keys = { script: `product-images/${ids.script}/x.js`, html: `product-images/${ids.html}/x.html` };
    const files = { script: Buffer.from(STEAL), html: page(`/_sandbox/uploads/${keys.script}`) };
    const types = { script: 'text/javascript', html: 'text/html' };
    await world.store.transact(() => {
      for (const which of ['script', 'html'] as const) {
        world.store.collections.product_images.insert({
          id: ids[which],
          product_id: DEMO_PRODUCT_ID,
          url: `${PUBLIC}/_sandbox/uploads/${keys[which]}`,
          filename: keys[which].split('/').pop()!,
          content_type: types[which],
          size: files[which].length,
          storage_key: keys[which],
          created_at: now,
          updated_at: now,
        });
      }
    });
    const storage = uploadStorageFor(world, sandbox.config);
    storage.write(keys.script, files.script);
    storage.write(keys.html, files.html);
    const title = await follow(browser.page, `${PUBLIC}/_sandbox/uploads/${keys.html}`);
    expect(title).not.toContain(token);
    expect(title.startsWith('stolen:')).toBe(false);
    // The tab stayed on the docs page: the page was a download, never a document of the sandbox's origin.
    expect(new URL(browser.page.url()).pathname).toBe('/docs/');
  }, 120_000);
});
