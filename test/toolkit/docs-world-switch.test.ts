// The docs page of a local sandbox: Try it out acts on the default world unless the reader switches the tab to a
// throw-away workspace of its own; Reset puts the chosen world back; only required parameters are filled in.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { SPARE_MERCHANT_ID } from '../../src/areas/spares/fixture-ids.js';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';

function operation(page: Page, operationId: string): Locator {
  return page
    .locator('.opblock')
    .filter({ has: page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${operationId}$`) }) })
    .first();
}

describeWithBrowser("the docs page's world switch and Reset", () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;
  const spareInDefaultWorld = async () =>
    (await fetch(`${sandbox.url}/2024-09/merchants/${SPARE_MERCHANT_ID}`, { headers: { Authorization: `Bearer ${sandbox.tokens.owner}` } })).status;

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    browser = await launchBrowser();
    await browser.page.goto(`${sandbox.url}/docs/`);
    await operation(browser.page, 'listMerchants').waitFor({ timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  /** Presses Try it out (when not yet pressed) and Execute; answers the status shown. */
  async function execute(operationId: string): Promise<number> {
    const op = operation(browser.page, operationId);
    if (!(await op.evaluate((el) => el.classList.contains('is-open')))) await op.locator('.opblock-summary').click();
    const tryIt = op.getByRole('button', { name: 'Try it out' });
    if (await tryIt.count()) await tryIt.click();
    const clear = op.getByRole('button', { name: 'Clear' });
    if (await clear.count()) await clear.click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const cell = op.locator('.live-responses-table tbody .response-col_status').first();
    await cell.waitFor({ timeout: 20_000 });
    return Number((await cell.textContent())?.trim().slice(0, 3));
  }

  it('When the docs open, then Try it out acts on the default world as the demo owner, and only required parameters are filled in', async () => {
    const { page } = browser;
    await expect.poll(() => page.locator('#sandbox-active-token').textContent(), { timeout: 20_000 }).toBe('demo-owner-token');
    expect(await page.locator('input[name="sandbox-world"][value="default"]').isChecked()).toBe(true);
    await expect.poll(() => page.locator('body').getAttribute('data-sandbox-world')).toBe('default');
    const op = operation(page, 'listProducts');
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    expect(await op.locator('tr[data-param-name="merchant_id"] input').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
    for (const optional of ['q', 'sku', 'page', 'per_page'])
      expect(await op.locator(`tr[data-param-name="${optional}"] input`).inputValue(), optional).toBe('');
    await op.locator('.opblock-summary').click();
  }, 60_000);

  it('When the reader deletes in a throw-away workspace, then the default world keeps the record, and Reset brings it back in the workspace', async () => {
    const { page } = browser;
    await page.locator('input[name="sandbox-world"][value="workspace"]').check();
    await expect.poll(() => page.locator('body').getAttribute('data-sandbox-world'), { timeout: 20_000 }).toBe('workspace');
    const id = await page.locator('body').getAttribute('data-sandbox-workspace');
    await expect.poll(() => page.locator('#sandbox-active-token').textContent()).toMatch(new RegExp(`^ws_${id}\\.`));

    expect(await execute('deleteMerchant')).toBe(204);
    expect(await spareInDefaultWorld()).toBe(200);
    expect(await execute('deleteMerchant')).toBe(404);
    await page.locator('#sandbox-reset').click();
    await expect.poll(() => page.locator('#sandbox-reset-status').textContent()).toBe('Reset to the seeded state.');
    expect(await execute('deleteMerchant')).toBe(204);
  }, 120_000);

  it('When the reader switches back to the default world and deletes, then the default world loses the record until Reset', async () => {
    const { page } = browser;
    await page.locator('input[name="sandbox-world"][value="default"]').check();
    await expect.poll(() => page.locator('#sandbox-active-token').textContent()).toBe('demo-owner-token');
    expect(await execute('deleteMerchant')).toBe(204);
    expect(await spareInDefaultWorld()).toBe(404);
    // The default world is shared: Reset asks first, and a dismissed question resets nothing.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.locator('#sandbox-reset').click();
    await expect.poll(() => page.locator('#sandbox-reset-status').textContent()).toBe('Not reset.');
    expect(asked).toEqual([expect.stringMatching(/^Reset the default world\?/)]);
    expect(await spareInDefaultWorld()).toBe(404);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('#sandbox-reset').click();
    await expect.poll(() => page.locator('#sandbox-reset-status').textContent()).toBe('Reset to the seeded state.');
    expect(await spareInDefaultWorld()).toBe(200);
  }, 120_000);
});
