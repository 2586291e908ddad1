// Hosted docs in a real browser: each browser gets a workspace of its own on load, and what one changes the other
// never sees.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';
import { ADMIN } from './support.js';

/** The public origin the hosted sandbox is configured with; the browsers resolve its name to the test server. */
const PUBLIC = 'http://sandbox.example.test';

const MERCHANT = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
/** A demo token on its own, not the tail of a workspace token. */
const BARE_DEMO_TOKEN = /(^|[^.\w-])demo-(owner|member|outsider|rival)-token/;

/** Opens the docs and answers the workspace id the page settled on. */
async function openDocs(page: Page, url: string): Promise<string> {
  await page.goto(`${url}/docs/`);
  await page.locator('body[data-sandbox-workspace]').waitFor({ state: 'attached', timeout: 20_000 });
  return (await page.locator('body').getAttribute('data-sandbox-workspace'))!;
}

/** Calls the API from the page with the token the page authorized (what Try it out sends). */
function fromPage(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = (window as unknown as { __sandboxWorkspace: { tokens: { owner: string } } }).__sandboxWorkspace.tokens.owner;
      const res = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    },
    { method, path, body },
  );
}

describeWithBrowser('hosted docs give each browser its own world', () => {
  let sandbox: RunningSandbox;
  let a: BrowserSession;
  let b: BrowserSession;

  // Each tab works in a workspace of its own: the shared sandbox is the hosted server both tabs visit.
  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent', hosted: true, adminToken: ADMIN, publicUrl: PUBLIC, workspaceCreatePerMinute: 10 });
    // The browsers visit the sandbox by its public name, as a hosted site's visitors do (Try it out calls PUBLIC_URL).
    const mapping = `--host-resolver-rules=MAP ${new URL(PUBLIC).host} ${new URL(sandbox.url).host}`;
    a = await launchBrowser([mapping]);
    b = await launchBrowser([mapping]);
  }, 60_000);

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await sandbox?.close();
  });

  it('When two browsers open the docs, then each gets its own workspace, shown with its token, and a change in one is not seen in the other', async () => {
    const idA = await openDocs(a.page, PUBLIC);
    const idB = await openDocs(b.page, PUBLIC);
    expect(idA).toMatch(/^[0-9a-f]{12}$/);
    expect(idB).not.toBe(idA);
    await expect.poll(() => a.page.locator('#sandbox-active-token').textContent()).toMatch(new RegExp(`^ws_${idA}\\.`));
    await expect.poll(() => a.page.locator('#sandbox-workspace').textContent()).toBe(idA);
    expect(await a.page.locator('#sandbox-expires').textContent()).toMatch(/^at \d{4}-/);
    // Every text names the tab's own tokens: the demo tokens answer 401 here.
    await expect
      .poll(() => a.page.locator('.information-container').textContent(), { timeout: 20_000 })
      .toContain('the owner token of this tab\u2019s workspace');
    expect(await a.page.content()).not.toMatch(BARE_DEMO_TOKEN);

    expect((await fromPage(a.page, 'PUT', `/2024-09/merchants/${MERCHANT}`, { name: 'Changed in A' })).status).toBe(204);
    expect((await fromPage(a.page, 'GET', `/2024-09/merchants/${MERCHANT}`)).body.data.name).toBe('Changed in A');
    expect((await fromPage(b.page, 'GET', `/2024-09/merchants/${MERCHANT}`)).body.data.name).toBe('Demo Outfitters');

    // A reload keeps the tab's workspace (sessionStorage) while it is alive.
    expect(await openDocs(a.page, PUBLIC)).toBe(idA);

    // "Reset my sandbox" resets A's world only.
    await fromPage(b.page, 'PUT', `/2024-09/merchants/${MERCHANT}`, { name: 'Changed in B' });
    await a.page.locator('#sandbox-reset').click();
    await expect.poll(() => a.page.locator('#sandbox-reset-status').textContent()).toContain('Reset');
    expect((await fromPage(a.page, 'GET', `/2024-09/merchants/${MERCHANT}`)).body.data.name).toBe('Demo Outfitters');
    expect((await fromPage(b.page, 'GET', `/2024-09/merchants/${MERCHANT}`)).body.data.name).toBe('Changed in B');

    // A kept workspace the sandbox no longer knows (deleted, or expired) is replaced by a new one on the next load.
    const gone = await fetch(`${sandbox.url}/_sandbox/workspaces/${idA}`, { method: 'DELETE', headers: { Authorization: `Bearer ${ADMIN}` } });
    expect(gone.status).toBe(204);
    const replaced = await openDocs(a.page, PUBLIC);
    expect(replaced).toMatch(/^[0-9a-f]{12}$/);
    expect(replaced).not.toBe(idA);
    expect((await fromPage(a.page, 'GET', `/2024-09/merchants/${MERCHANT}`)).body.data.name).toBe('Demo Outfitters');
  }, 120_000);

  it("When the tab tries a control-plane operation through Swagger UI, then it runs in the tab's workspace", async () => {
    const id = await openDocs(b.page, PUBLIC);
    const { page } = b;
    const op = page.locator('.opblock').filter({ hasText: 'getSandboxClock' });
    await op.first().waitFor({ timeout: 15_000 });
    await op.locator('.opblock-summary').first().click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const body = op.locator('.live-responses-table .response-col_description pre').first();
    await expect.poll(() => body.textContent(), { timeout: 15_000 }).toContain(`"workspace": "${id}"`);
  }, 90_000);
});
