import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeWithBrowser, launchBrowser, serveOnLoopback, type BrowserSession, type LoopbackServer } from '../helpers/browser.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { channels, ORDERS, ORDERS_QUERY } from './support.js';

describeWithBrowser('retailer consent in a real browser', () => {
  // The browser is slow to start: one per file. Each test gets its own app (and world) served to it.
  let browser: BrowserSession;
  let t: TestApp;
  let server: LoopbackServer;

  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    t = await testApp();
    server = await serveOnLoopback(t.app);
  });
  afterEach(async () => {
    await server.close();
    expect(t.errors).toEqual([]);
  });

  const api = (path: string) => fetch(server.url + path, { headers: t.auth('owner') });

  /** Opens the unconnected channel's auth url in the browser and clicks Approve. */
  async function approve() {
    const auth = await (await api(`/2024-09/channels/retailer/${channels.unconnected}/get-auth-url`)).json();
    const { page } = browser;
    await page.goto(auth.url);
    expect(await page.locator('form').count()).toBe(1);
    expect(await page.textContent('body')).toContain('Demo Outfitters CA store');
    await Promise.all([page.waitForURL(/\/_retailer\/callback\?/), page.getByRole('button', { name: 'Approve' }).click()]);
  }

  it('When the owner opens the auth url and clicks Approve, then the success page shows and the channel is connected and relays', async () => {
    await approve();
    expect(await browser.page.locator('h1').textContent()).toBe('Channel connected');

    const channel = await (await api(`/2024-09/channels/${channels.unconnected}`)).json();
    expect(channel.data).toMatchObject({ connected: true, marketplace_id: 'ATVPDKIKX0DER' });
    const relayed = await api(`/2024-09/channels/retailer/${channels.unconnected}/call/${ORDERS}?${new URLSearchParams(ORDERS_QUERY)}`);
    expect(relayed.status).toBe(200);
    expect(JSON.parse((await relayed.json()).response).payload.Orders.length).toBeGreaterThan(0);
  }, 60_000);

  it('When the page is reloaded after the exchange, then the reused code shows an error page and the connection stays', async () => {
    await approve();
    const before = t.store.channel_connections.get(channels.unconnected);
    const response = await browser.page.reload();
    expect(response?.status()).toBe(400);
    expect(await browser.page.locator('h1').textContent()).toBe('Authorization failed');
    expect(t.store.channel_connections.get(channels.unconnected)).toEqual(before);
  }, 60_000);

  it('When Deny is clicked, then the error page says so and nothing is stored', async () => {
    const auth = await (await api(`/2024-09/channels/retailer/${channels.unconnected}/get-auth-url`)).json();
    const before = t.store.channel_connections.get(channels.unconnected);
    await browser.page.goto(auth.url);
    await Promise.all([browser.page.waitForURL(/error=access_denied/), browser.page.getByRole('button', { name: 'Deny' }).click()]);
    expect(await browser.page.textContent('[role=alert]')).toContain('denied');
    expect(t.store.channel_connections.get(channels.unconnected)).toEqual(before);
  }, 30_000);
});
