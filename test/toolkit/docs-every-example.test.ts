// A reader executes every operation's example on the docs page of a local sandbox, deletes first, without typing
// (except the id of a workspace to delete, which only exists once created): each answers its success status. A
// second pass over the same world answers each success status or the documented uniqueness 422, nothing else.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';
import { contractOperations } from '../helpers/contract-requests.js';
import { successStatus } from '../helpers/example-requests.js';

const DESTRUCTIVE = /^(delete|remove|revoke)/;
/** Deletes first, then the rest in the contract's order. */
const ALL = [...contractOperations.filter((op) => DESTRUCTIVE.test(op.operationId)), ...contractOperations.filter((op) => !DESTRUCTIVE.test(op.operationId))];
const ORDER = process.env.DOCS_ONLY ? ALL.slice(0, Number(process.env.DOCS_ONLY)) : ALL;

function operation(page: Page, operationId: string): Locator {
  return page.locator('.opblock').filter({ has: page.locator('.opblock-summary-operation-id', { hasText: new RegExp(`^${operationId}$`) }) }).first();
}

describeWithBrowser('every example on the docs page', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;

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

  /** Opens the operation (it stays open for the next pass), presses Try it out (once) and Execute, answers the status shown. */
  async function execute(operationId: string, fill: Record<string, string> = {}): Promise<{ status: number; body: string }> {
    const { page } = browser;
    const op = operation(page, operationId);
    if (!(await op.evaluate((el) => el.classList.contains('is-open')))) await op.locator('.opblock-summary').click();
    const tryIt = op.getByRole('button', { name: 'Try it out' });
    if (await tryIt.count()) await tryIt.click();
    for (const [name, value] of Object.entries(fill)) await op.locator(`tr[data-param-name="${name}"] input`).fill(value);
    // A previous answer stays on screen until the next one replaces it: wait for the request this click sends.
    const answered = page.waitForResponse((res) => res.request().method() !== 'OPTIONS' && res.url().startsWith(sandbox.url) && !res.url().includes('/openapi.json'), { timeout: 15_000 });
    await op.getByRole('button', { name: 'Execute' }).click();
    await answered;
    const cell = op.locator('.live-responses-table tbody .response-col_status').first();
    await cell.waitFor({ timeout: 15_000 });
    const status = Number((await cell.textContent())?.trim().slice(0, 3));
    const body = (await op.locator('.live-responses-table .response-col_description pre').first().textContent().catch(() => '')) ?? '';
    return { status, body };
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
    for (const optional of ['q', 'sku', 'page', 'per_page']) expect(await op.locator(`tr[data-param-name="${optional}"] input`).inputValue(), optional).toBe('');
    await op.getByRole('button', { name: 'Cancel' }).click();
    await op.locator('.opblock-summary').click();
  }, 60_000);

  it('When every example is executed, deletes first, then each answers its success status; a second pass answers success or the uniqueness 422', async () => {
    const seen: string[] = [];
    for (const pass of [1, 2]) {
      for (const op of ORDER) {
        // The contract's `default` is the world that is never deleted: a reader deletes a workspace they created.
        const fill: Record<string, string> = op.operationId === 'deleteSandboxWorkspace' ? { workspace: sandbox.createWorkspace().id } : {};
        const started = Date.now();
        const { status, body } = await execute(op.operationId, fill);
        if (process.env.DOCS_TIMING) console.log(`pass ${pass} ${op.operationId} ${status} ${Date.now() - started} ms`);
        const expected = successStatus(op);
        const uniqueness = status === 422 && /already|taken|exists/i.test(body);
        if (status !== expected && !(pass === 2 && uniqueness)) seen.push(`pass ${pass} ${op.operationId}: ${status} ${body.slice(0, 200)}`);
      }
    }
    expect(seen).toEqual([]);
  }, 600_000);
});
