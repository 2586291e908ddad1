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
const ORDER_ALL = [...contractOperations.filter((op) => DESTRUCTIVE.test(op.operationId)), ...contractOperations.filter((op) => !DESTRUCTIVE.test(op.operationId))];
const ORDER = ORDER_ALL;

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

  /** Opens the operation, presses Try it out and Execute, answers the status shown; closes it again (an open one slows every later render). */
  async function execute(operationId: string, fill: Record<string, string> = {}): Promise<{ status: number; body: string }> {
    const { page } = browser;
    const op = operation(page, operationId);
    await op.locator('.opblock-summary').click();
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
    await op.locator('.opblock-summary').click();
    return { status, body };
  }

  it('When every example is executed, deletes first, then each answers its success status; a second pass answers success or the uniqueness 422', async () => {
    const seen: string[] = [];
    for (const pass of [1, 2]) {
      for (const op of ORDER) {
        // The contract's `default` is the world that is never deleted: a reader deletes a workspace they created.
        const fill: Record<string, string> = op.operationId === 'deleteSandboxWorkspace' ? { workspace: sandbox.createWorkspace().id } : {};
        const { status, body } = await execute(op.operationId, fill);
        const expected = successStatus(op);
        const uniqueness = status === 422 && /already|taken|exists/i.test(body);
        if (status !== expected && !(pass === 2 && uniqueness)) seen.push(`pass ${pass} ${op.operationId}: ${status} ${body.slice(0, 200)}`);
      }
    }
    expect(seen).toEqual([]);
  }, 600_000);
});
