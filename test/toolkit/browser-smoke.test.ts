import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithBrowser, launchBrowser, serveOnLoopback, type BrowserSession, type LoopbackServer } from '../helpers/browser.js';

// Proves the CI browser toolchain (apt chromium + playwright-core) works before any real page depends on it.
describeWithBrowser('browser smoke test', () => {
  let browser: BrowserSession;
  let site: LoopbackServer;

  beforeAll(async () => {
    site = await serveOnLoopback((_req, res) => {
      res.setHeader('Content-Type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><title>smoke</title>
        <button id="go" onclick="document.getElementById('out').textContent='clicked'">Go</button>
        <p id="out">waiting</p>`);
    });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('When a page on 127.0.0.1 is opened and its button clicked, then the page reacts', async () => {
    const { page } = browser;
    await page.goto(site.url);
    await page.getByRole('button', { name: 'Go' }).click();
    await expect.poll(() => page.locator('#out').textContent()).toBe('clicked');
  });
});
