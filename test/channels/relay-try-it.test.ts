// The relay from the docs page, as a reader tries it: Swagger UI fills the declared retailer_query object from its
// example and sends its members as plain query parameters (form style, exploded), with the endpoint encoded.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';
import { channels } from './support.js';

describeWithBrowser('the relay from the docs page', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('When a reader tries retrieveRetailerResource with the example query, then the retailer gets MarketplaceIds and answers the orders', async () => {
    const { page } = browser;
    await page.setExtraHTTPHeaders({ Authorization: 'Bearer demo-owner-token' });
    await page.goto(`${sandbox.url}/docs`);
    const op = page.locator('.opblock', { hasText: 'retrieveRetailerResource' });
    await op.first().waitFor({ timeout: 20_000 });
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.locator('tr[data-param-name="channel"] input').fill(channels.connected);
    await op.locator('tr[data-param-name="endpoint"] input').fill('orders/v0/orders');
    const sent = page.waitForRequest((req) => req.url().includes('/call/'));
    await op.getByRole('button', { name: 'Execute' }).click();
    const url = (await sent).url();
    expect(url).toContain(`/call/orders%2Fv0%2Forders?MarketplaceIds=ATVPDKIKX0DER&CreatedAfter=`);
    const status = op.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    await expect.poll(() => status.textContent()).toContain('200');
    const text = (await op.locator('.live-responses-table .response-col_description pre').first().textContent()) ?? '';
    expect(JSON.parse(JSON.parse(text).response).payload.Orders.length).toBeGreaterThan(0);
  }, 90_000);
});
