// A reader of /docs presses "Try it out" then "Execute" and gets an answer without typing anything: the token is
// authorized and every id parameter is filled in with one of the demo world's ids (the contract's examples).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';

/** One operation of each tag, each naming at least one demo id in its path or query where its tag has one. */
const ONE_PER_TAG = [
  'getMerchant',
  'getCurrentUser',
  'getChannel',
  'getProduct',
  'getSupplierItem',
  'getCatalogItem',
  'listOpportunityForecasts',
  'getSandboxClock',
] as const;

describeWithBrowser('docs in one click', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;

  // Read-only operations in one page: one sandbox (and one browser) for the file.
  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('When the docs open, then the active token is shown in clear', async () => {
    const { page } = browser;
    await page.goto(`${sandbox.url}/docs/`);
    await expect.poll(() => page.locator('#sandbox-active-token').textContent(), { timeout: 20_000 }).toBe('demo-owner-token');
  }, 60_000);

  for (const operationId of ONE_PER_TAG) {
    it(`When a reader presses Try it out then Execute on ${operationId} without typing, then the answer is 2xx`, async () => {
      const { page } = browser;
      const op = page.locator('.opblock').filter({ has: page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${operationId}$`) }) });
      await op.first().waitFor({ timeout: 20_000 });
      await op.locator('.opblock-summary').first().click();
      await op.getByRole('button', { name: 'Try it out' }).click();
      await op.getByRole('button', { name: 'Execute' }).click();
      const status = op.locator('.live-responses-table tbody .response-col_status').first();
      await status.waitFor({ timeout: 15_000 });
      await expect.poll(async () => (await status.textContent())?.trim()).toMatch(/^2\d\d/);
    }, 60_000);
  }
});
