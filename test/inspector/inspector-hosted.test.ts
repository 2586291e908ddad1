// The hosted inspector in a real browser: each tab sees only its own workspace's requests, read with its token in
// the Authorization header, never in a URL. One tab got its workspace from the docs page (the inspector reads the
// same sessionStorage entry), the other made one from the inspector.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';
import { ADMIN } from '../hosted/support.js';

const PUBLIC = 'http://sandbox.example.test';
const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/** The workspace this tab keeps (the docs page's sessionStorage entry). */
const keptWorkspace = (page: Page) =>
  page.evaluate(() => JSON.parse(sessionStorage.getItem('sandbox-workspace') ?? 'null') as { id: string; tokens: { owner: string } } | null);

/** A call from the tab with its own token, as a developer's code in that tab would send it; answers the entry id. */
async function callFromTab(page: Page, method: string, path: string, body?: unknown): Promise<string> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = (JSON.parse(sessionStorage.getItem('sandbox-workspace')!) as { tokens: { owner: string } }).tokens.owner;
      const res = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return res.headers.get('X-Request-Id')!;
    },
    { method, path, body },
  );
}

const listedIds = (page: Page) => page.locator('#journal tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

// A page that polls every 2 s on a loaded 2-core machine: each case waits for polls, never a fixed sleep alone.
vi.setConfig({ testTimeout: 60_000 });

describeWithBrowser('the hosted inspector', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;
  const urls: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent', hosted: true, adminToken: ADMIN, publicUrl: PUBLIC, workspaceCreatePerMinute: 10 });
    browser = await launchBrowser([`--host-resolver-rules=MAP ${new URL(PUBLIC).host} ${new URL(sandbox.url).host}`]);
    browser.context.on('request', (request) => urls.push(request.url()));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('When two tabs use the inspector, then each lists only its own workspace’s requests, and no URL carries a token', async () => {
    // Tab A: the docs make its workspace; the inspector opened in the same tab acts in it.
    const a = browser.page;
    await a.goto(`${PUBLIC}/docs/`);
    await a.locator('body[data-sandbox-workspace]').waitFor({ state: 'attached', timeout: 30_000 });
    const wsA = (await keptWorkspace(a))!;
    // Tab B: no docs; the inspector makes a workspace for it.
    const b = await browser.context.newPage();
    await b.goto(`${PUBLIC}/_sandbox/inspector`);
    await expect.poll(() => b.locator('#poll-status').textContent()).toContain('No workspace for this tab yet');
    await b.locator('#new-workspace').click();
    await expect.poll(async () => (await keptWorkspace(b))?.id).toMatch(/^[0-9a-f]{12}$/);
    const wsB = (await keptWorkspace(b))!;
    expect(wsB.id).not.toBe(wsA.id);

    await a.goto(`${PUBLIC}/_sandbox/inspector`);
    const fromA = [await callFromTab(a, 'GET', `/2024-09/merchants/${MERCHANT}`), await callFromTab(a, 'POST', '/2024-09/products', { sku: 1 })];
    const fromB = [await callFromTab(b, 'GET', '/2024-09/merchants')];
    await expect.poll(() => listedIds(a), { timeout: 20_000 }).toEqual([...fromA].reverse());
    await expect.poll(() => listedIds(b), { timeout: 20_000 }).toEqual(fromB);
    // A few more polls later, still only their own.
    await b.waitForTimeout(4500);
    expect(await listedIds(a)).toEqual([...fromA].reverse());
    expect(await listedIds(b)).toEqual(fromB);

    // The entry opens in its own tab, and "copy as curl" names a placeholder, not the tab's token, unless asked to.
    await a.locator(`#journal tbody tr[data-id="${fromA[1]}"] button`).click();
    await a.locator('#copy-curl').click();
    expect(await a.locator('#curl').textContent()).toContain('$SANDBOX_TOKEN');
    await a.locator('#curl-token').check();
    await a.locator('#copy-curl').click();
    expect(await a.locator('#curl').textContent()).toContain(`Bearer ${wsA.tokens.owner}`);

    expect(urls.some((url) => url.includes('/_sandbox/requests'))).toBe(true);
    expect(urls.filter((url) => url.includes('ws_') || url.includes(wsA.tokens.owner.split('.')[1]!) || url.includes(wsB.tokens.owner.split('.')[1]!))).toEqual(
      [],
    );
    await b.close();
  }, 90_000);
});
