// The headers as a browser applies them: the docs page (Swagger UI and its inline scripts) runs under its policy
// with nothing refused, and another site cannot frame the sandbox's pages (the consent page's Approve button).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, serveOnLoopback, type BrowserSession, type LoopbackServer } from '../helpers/browser.js';

describeWithBrowser('security headers in a browser', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;
  let otherSite: LoopbackServer;

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    // Another origin (its own port) that tries to frame the sandbox's landing page.
    otherSite = await serveOnLoopback((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>framing</title><iframe id="victim" src="${sandbox.url}/"></iframe>`);
    });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await otherSite?.close();
    await sandbox?.close();
  });

  it('When the docs page is opened, then Swagger UI renders, its inline scripts ran and the browser refused nothing under the policy', async () => {
    const { page } = browser;
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${sandbox.url}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
    // The banner and the active token come from the page's two inline scripts and its onComplete.
    await expect.poll(() => page.locator('#sandbox-active-token').textContent()).toBe(sandbox.tokens.owner);
    expect(refused).toEqual([]);
  }, 60_000);

  it('When another site frames a sandbox page, then the browser does not show it in the frame', async () => {
    const { page } = browser;
    const refused: string[] = [];
    page.on('console', (message) => refused.push(message.text()));
    await page.goto(otherSite.url);
    await page.locator('#victim').waitFor();
    await expect.poll(() => refused.some((text) => /frame-ancestors|Refused to (display|frame)/i.test(text)), { timeout: 10_000 }).toBe(true);
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(
      await frame
        .locator('body')
        .textContent()
        .catch(() => ''),
    ).not.toContain('Commerce Operations');
  }, 60_000);
});
