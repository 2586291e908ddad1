// The browser proof over the real app (startSandbox: the same server main.ts runs): a reader opens
// /docs, authorizes with a demo token, tries listMerchants, uploads a product image and relays a call to the
// retailer, all through the page.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEMO_CONNECTED_CHANNEL_ID } from '../../src/areas/channels/fixture-ids.js';
import { DEMO_PRODUCT_ID } from '../../src/areas/products/fixture-ids.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';

// A 1x1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

describeWithBrowser('the docs of the real app in a browser', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;
  let dir: string;

  // One page walks the docs, as a reader does: each test writes only what no other test reads.
  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    browser = await launchBrowser();
    dir = await mkdtemp(join(tmpdir(), 'sandbox-upload-'));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('When a reader authorizes with the demo token and tries listMerchants, then the page shows 200 with Demo Outfitters', async () => {
    const { page } = browser;
    await page.goto(`${sandbox.url}/docs`);
    // Authorize through the dialog, as a reader would (the demo token is pre-filled; they log out and type it).
    await page.locator('.auth-wrapper .authorize').waitFor({ timeout: 20_000 });
    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    const logout = dialog.locator('button', { hasText: 'Logout' });
    if (await logout.count()) await logout.click();
    await dialog.locator('input').first().fill('demo-owner-token');
    await dialog.locator('button.authorize', { hasText: 'Authorize' }).click();
    await dialog.locator('button.btn-done').click();

    const op = page.locator('.opblock', { has: page.locator('[data-path="/2024-09/merchants"]') }).filter({ hasText: 'listMerchants' });
    await op.first().waitFor({ timeout: 15_000 });
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    await expect.poll(() => status.textContent()).toContain('200');
    const body = op.locator('.live-responses-table .response-col_description pre').first();
    await expect.poll(() => body.textContent()).toContain('Demo Outfitters');
  }, 90_000);

  it('When a reader uploads a PNG to createProductImage through the page, then 201 and the image is served back', async () => {
    const { page } = browser;
    const file = join(dir, 'tent.png');
    await writeFile(file, PNG);
    const op = page.locator('.opblock', { hasText: 'createProductImage' });
    await op.first().waitFor({ timeout: 15_000 });
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.locator('tr[data-param-name="product"] input').fill(DEMO_PRODUCT_ID);
    await op.locator('.body-param-content-type select').selectOption('multipart/form-data');
    await op.locator('input[type="file"]').setInputFiles(file);
    await op.getByRole('button', { name: 'Execute' }).click();
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    await expect.poll(() => status.textContent()).toContain('201');
    const text = (await op.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '';
    const image = JSON.parse(text).data as { url: string; product_id: string };
    expect(image.product_id).toBe(DEMO_PRODUCT_ID);
    const served = await fetch(image.url);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  }, 90_000);

  it('When a reader tries retrieveRetailerResource with the example query, then Swagger UI sends its members as plain query parameters and the retailer answers the orders', async () => {
    const { page } = browser;
    // Its own token, so this test does not lean on the first one's authorization.
    await page.setExtraHTTPHeaders({ Authorization: 'Bearer demo-owner-token' });
    try {
      const op = page.locator('.opblock', { hasText: 'retrieveRetailerResource' });
      await op.first().waitFor({ timeout: 15_000 });
      await op.locator('.opblock-summary').click();
      await op.getByRole('button', { name: 'Try it out' }).click();
      await op.locator('tr[data-param-name="channel"] input').fill(DEMO_CONNECTED_CHANNEL_ID);
      await op.locator('tr[data-param-name="endpoint"] input').fill('orders/v0/orders');
      // An optional parameter is not filled in: the reader types the example its description gives.
      await op.locator('tr[data-param-name="retailer_query"] textarea').fill('{"MarketplaceIds":"ATVPDKIKX0DER","CreatedAfter":"2024-08-01T00:00:00Z"}');
      const sent = page.waitForRequest((req) => req.url().includes('/call/'));
      await op.getByRole('button', { name: 'Execute' }).click();
      expect((await sent).url()).toContain('/call/orders%2Fv0%2Forders?MarketplaceIds=ATVPDKIKX0DER&CreatedAfter=');
      const status = op.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 15_000 });
      await expect.poll(() => status.textContent()).toContain('200');
      const text = (await op.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '';
      expect(JSON.parse(JSON.parse(text).response).payload.Orders.length).toBeGreaterThan(0);
    } finally {
      await page.setExtraHTTPHeaders({});
    }
  }, 90_000);
});
