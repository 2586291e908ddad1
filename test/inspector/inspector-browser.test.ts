// The request inspector in a real browser (Debian chromium through playwright-core): what a developer reads there
// about a refused call, what "copy as curl" and "send again" do, the coverage grid, a loaded CI run, the page's
// accessibility and its keyboard use. Screenshots at 1280 and 390 px go to test-artifacts/inspector/ (not in git).
import { execFile } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, serveOnLoopback, type BrowserSession } from '../helpers/browser.js';
import { demo } from '../helpers/app.js';

const run = promisify(execFile);
const ARTIFACTS = join(import.meta.dirname, '../../test-artifacts/inspector');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** An API call from the test (a client of the sandbox): its status, body and journal entry id (X-Request-Id). */
async function call(base: string, method: string, path: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token && { Authorization: `Bearer ${token}` }), ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, id: res.headers.get('x-request-id')! };
}

async function openInspector(page: Page, base: string, hash = '') {
  await page.goto(`${base}/_sandbox/inspector${hash}`);
  await page.locator('body[data-journal-ready]').waitFor({ state: 'attached', timeout: 20_000 });
}

/** Opens an entry by its request id once the journal lists it (a poll brings it). */
async function openEntry(page: Page, id: string) {
  const row = page.locator(`#journal tbody tr[data-id="${id}"] button`);
  await row.waitFor({ timeout: 20_000 });
  await row.click();
  await expect.poll(() => page.locator('#detail').textContent()).toContain(id);
}

const answeredStep = (page: Page) => page.locator('#detail ol.trail li[aria-current="step"]');

/** axe-core's serious and critical findings on the page as it is (axe runs through the debugger, not as a page script, so the page's policy stays as served). */
async function seriousA11yIssues(page: Page) {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }
    ).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

// A page that polls every 2 s on a loaded 2-core machine: each case waits for polls, never a fixed sleep alone.
vi.setConfig({ testTimeout: 60_000 });

describeWithBrowser('the request inspector', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    sandbox = await startSandbox({ logLevel: 'silent' });
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('When a create answered 422, then the opened entry shows each field error beside the value sent, with a link to the operation in the docs', async () => {
    const refused = await call(sandbox.url, 'POST', '/2024-09/products', demo.owner.token, { merchant_id: demo.merchant, sku: 42, title: '' });
    expect(refused.status).toBe(422);
    const { page } = browser;
    await openInspector(page, sandbox.url);
    await openEntry(page, refused.id);
    await expect.poll(() => answeredStep(page).getAttribute('data-step')).toBe('validation');
    const rows = answeredStep(page).locator('table.errors tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // Each row: the field, the value sent, the contract's rule, the message.
    const cells = (row: ReturnType<typeof rows.filter>) => row.locator('th, td').allTextContents();
    expect(await cells(rows.filter({ hasText: 'body.sku' }))).toEqual(['body.sku', '42', 'type string', 'The sku field must be string.']);
    expect(await cells(rows.filter({ hasText: 'body.title' }))).toEqual([
      'body.title',
      '""',
      'minLength 1',
      'The title field must not have fewer than 1 characters.',
    ]);
    await expect.poll(() => answeredStep(page).locator('a').getAttribute('href')).toBe('/docs/#/Products/createProduct');
    // The answer body, as the journal keeps it.
    expect(await page.locator('#detail').textContent()).toContain('"The title field must not have fewer than 1 characters."');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, 'journal-422-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(ARTIFACTS, 'journal-422-390.png'), fullPage: true });
    // At 390 px nothing makes the page scroll sideways (wide tables scroll in their own box).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("When a read of another merchant's record answered 403, then the record step answered it, naming the record", async () => {
    const forbidden = await call(sandbox.url, 'GET', `/2024-09/merchants/${demo.rivalMerchant}`, demo.owner.token);
    expect(forbidden.status).toBe(403);
    const { page } = browser;
    await openInspector(page, sandbox.url);
    await openEntry(page, forbidden.id);
    expect(await answeredStep(page).getAttribute('data-step')).toBe('record');
    // The record is named: the path parameter, the id sent, and why (another merchant's).
    expect(await answeredStep(page).textContent()).toBe(
      `Record: merchant = ${demo.rivalMerchant}: it belongs to a merchant the caller is not a member of (403). answered here`,
    );
    // The steps before it passed: the route matched and the token was accepted.
    expect(await page.locator('#detail li[data-step="route"]').getAttribute('class')).toBe('passed');
    expect(await page.locator('#detail li[data-step="authentication"]').textContent()).toContain('the token was accepted');
  });

  it('When "copy as curl" is run in a shell, then it gets the same answer the journal shows, and the command names no token', async () => {
    const read = await call(sandbox.url, 'GET', `/2024-09/merchants/${demo.merchant}?include=unknown`, demo.owner.token);
    const refused = await call(sandbox.url, 'POST', '/2024-09/products', demo.owner.token, { merchant_id: demo.merchant, sku: "it's", title: '' });
    const { page } = browser;
    await openInspector(page, sandbox.url);
    for (const original of [read, refused]) {
      await openEntry(page, original.id);
      await page.locator('#copy-curl').click();
      const command = (await page.locator('#curl').textContent())!;
      expect(command).toContain('"Authorization: Bearer $SANDBOX_TOKEN"');
      expect(command).not.toContain(demo.owner.token);
      const { stdout } = await run('sh', ['-c', `${command} -w '\\n%{http_code}'`], { env: { ...process.env, SANDBOX_TOKEN: demo.owner.token } });
      const [answer, status] = [stdout.slice(0, stdout.lastIndexOf('\n')), stdout.slice(stdout.lastIndexOf('\n') + 1)];
      expect(Number(status)).toBe(original.status);
      expect(JSON.parse(answer)).toEqual(original.body);
    }
  });

  it('When "send again" is pressed, then the same request runs in the same world and its new entry opens', async () => {
    const refused = await call(sandbox.url, 'POST', '/2024-09/products', demo.owner.token, { merchant_id: demo.merchant, sku: 7, title: 'Again' });
    const { page } = browser;
    await openInspector(page, sandbox.url);
    await openEntry(page, refused.id);
    await page.locator('#send-again').click();
    await expect.poll(() => page.locator('#detail').textContent(), { timeout: 20_000 }).not.toContain(refused.id);
    const newest = (await page.locator('#journal tbody tr').first().getAttribute('data-id'))!;
    expect(newest).not.toBe(refused.id);
    expect(await page.locator('#detail').textContent()).toContain(newest);
    const journal = (await (await fetch(`${sandbox.url}/_sandbox/requests?workspace=default&limit=2`)).json()) as {
      data: { id: string; status: number; request: { body: unknown } }[];
    };
    expect(journal.data[0]).toMatchObject({ id: newest, status: 422, request: { body: { merchant_id: demo.merchant, sku: 7, title: 'Again' } } });
  });

  it('When "send again" is pressed on an entry whose path starts with //, then it goes to the sandbox at that path, never to the host the path names', async () => {
    // Another site on loopback, which records what reaches it.
    const reached: string[] = [];
    const other = await serveOnLoopback((req, res) => {
      reached.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(204, { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': '*', 'Access-Control-Allow-Methods': '*' }).end();
    });
    try {
      // A request whose target starts with // (any HTTP client may send one), journaled with its token redacted.
      const path = `//${new URL(other.url).host}/steal`;
      const id = await new Promise<string>((resolve, reject) => {
        const { hostname, port } = new URL(sandbox.url);
        httpRequest({ hostname, port, path, headers: { Authorization: `Bearer ${demo.owner.token}` } }, (res) => {
          res.resume().once('end', () => resolve(String(res.headers['x-request-id'])));
        })
          .once('error', reject)
          .end();
      });
      const { page } = browser;
      await openInspector(page, sandbox.url);
      await openEntry(page, id);
      await page.locator('#send-again').click();
      // Its new entry opens: the request reached the sandbox, at the same path.
      await expect.poll(() => page.locator('#detail').textContent(), { timeout: 20_000 }).not.toContain(id);
      const journal = (await (await fetch(`${sandbox.url}/_sandbox/requests?workspace=default&limit=1`)).json()) as {
        data: { path: string; status: number }[];
      };
      expect(journal.data[0]).toMatchObject({ path, status: 404 });
      expect(reached).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('When the journal gains a request, then the open page lists it by itself; the filters narrow the list', async () => {
    const { page } = browser;
    await openInspector(page, sandbox.url);
    const later = await call(sandbox.url, 'DELETE', '/2024-09/nothing-here', demo.owner.token);
    expect(later.status).toBe(404);
    await page.locator(`#journal tbody tr[data-id="${later.id}"]`).waitFor({ timeout: 20_000 });
    expect(await page.locator('#journal tbody tr').first().getAttribute('data-id')).toBe(later.id);
    await page.locator('#filters [name=status]').selectOption('4xx');
    await expect.poll(async () => (await page.locator('#journal tbody tr .status').allTextContents()).every((s) => s.startsWith('4'))).toBe(true);
    await page.locator('#filters [name=method]').selectOption('DELETE');
    await expect.poll(() => page.locator('#journal tbody tr').count()).toBe(1);
    await openEntry(page, later.id);
    expect(await answeredStep(page).getAttribute('data-step')).toBe('route');
  });

  it('When the journal grows faster than the page polls, then the page lists the newest entries, says how many it skipped, and reads them again on demand', async () => {
    const seen = await call(sandbox.url, 'GET', '/2024-09/users/current', demo.owner.token);
    const { page } = browser;
    await openInspector(page, sandbox.url);
    await page.locator(`#journal tbody tr[data-id="${seen.id}"]`).waitFor();
    // The page's next poll waits until the flood is in the journal, so it meets more than one read lists.
    let flooded!: () => void;
    const held = new Promise<void>((resolve) => (flooded = resolve));
    const polls: string[] = [];
    const isPoll = (url: URL) => url.pathname.endsWith('/_sandbox/requests') && url.searchParams.has('after');
    await page.route(isPoll, async (route) => {
      polls.push(route.request().url());
      await held;
      await route.continue();
    });
    try {
      for (let i = 0; i < 250; i += 25) {
        await Promise.all(Array.from({ length: 25 }, () => call(sandbox.url, 'GET', '/2024-09/users/current', demo.owner.token)));
      }
      const newest = await call(sandbox.url, 'GET', `/2024-09/merchants/${demo.merchant}`, demo.owner.token);
      flooded();
      await page.locator(`#journal tbody tr[data-id="${newest.id}"]`).waitFor({ timeout: 20_000 });
      const note = page.locator('#gap-note');
      await note.waitFor({ state: 'visible' });
      // 251 entries arrived after the one the page held: it lists the newest (100 for the held poll; a poll already
      // on its way when the route was set may have brought a few more) and counts every one it did not list.
      const listedAfterSeen = await page
        .locator('#journal tbody tr')
        .evaluateAll((rows, id) => rows.findIndex((row) => row.getAttribute('data-id') === id), seen.id);
      expect(listedAfterSeen).toBeGreaterThanOrEqual(100);
      expect(await note.textContent()).toMatch(
        new RegExp(`^\\s*${251 - listedAfterSeen} more requests since \\d\\d:\\d\\d:\\d\\d UTC are not listed: each read lists the newest 100\\.`),
      );
      expect(await page.locator('#journal tbody tr').first().getAttribute('data-id')).toBe(newest.id);
      // Polls read entries summed up: no headers or bodies travel until an entry is opened.
      expect(polls.every((url) => new URL(url).searchParams.get('fields') === 'summary')).toBe(true);
      await page.locator('#reread').click();
      await note.waitFor({ state: 'hidden' });
      await expect.poll(() => page.locator('#journal tbody tr').count()).toBeGreaterThan(251);
    } finally {
      flooded();
      await page.unroute(isPoll);
    }
  });

  it('When the coverage grid is given a --require file, then its pairs are marked, each exercised cell leads to its entries, and the gate verdict is shown', async () => {
    await call(sandbox.url, 'GET', `/2024-09/merchants/${demo.merchant}`, demo.owner.token);
    const { page } = browser;
    await openInspector(page, sandbox.url, '#coverage');
    const hit = page.locator('td[data-pair="getMerchant 200"]');
    await hit.waitFor();
    expect(await hit.getAttribute('class')).toBe('hit');
    expect(await page.locator('td[data-pair="getMerchant 404"]').getAttribute('class')).toBe('miss');
    await page.locator('#require summary').click();
    await page.locator('#require-text').fill('getMerchant 200\ngetMerchant 404\n');
    await expect.poll(() => page.locator('#gate').textContent()).toBe('The gate would fail: 1 of 2 required pairs not exercised: getMerchant 404.');
    expect(await hit.getAttribute('class')).toBe('hit required');
    await page.locator('#require-text').fill('getMerchant 2xx\n');
    await expect.poll(() => page.locator('#gate').textContent()).toBe('The gate would pass: all 1 required pairs are exercised.');
    await page.locator('#require-text').fill('getMerchant 418\n');
    await expect.poll(() => page.locator('#gate').textContent()).toContain('require file:1: getMerchant documents no 418');
    await page.screenshot({ path: join(ARTIFACTS, 'coverage-1280.png') });
    await page.locator('td[data-pair="getMerchant 200"] a').click();
    await expect.poll(() => page.locator('#journal-view').isVisible()).toBe(true);
    await expect.poll(async () => new Set(await page.locator('#journal tbody tr td:nth-child(3)').allTextContents())).toEqual(new Set(['getMerchant']));
    expect(new Set(await page.locator('#journal tbody tr .status').allTextContents())).toEqual(new Set(['200']));
  });

  it("When a path was sent a method it does not have, then each of its operations' 405 cell is exercised and leads to that 405 entry", async () => {
    const refused = await call(sandbox.url, 'PATCH', '/2024-09/users/current', demo.owner.token, {});
    expect(refused.status).toBe(405);
    const { page } = browser;
    await openInspector(page, sandbox.url, '#coverage');
    const hit = page.locator('td[data-pair="updateCurrentUser 405"]');
    await hit.waitFor();
    expect(await hit.getAttribute('class')).toBe('hit');
    expect(await page.locator('td[data-pair="getCurrentUser 405"]').getAttribute('class')).toBe('hit');
    await page.locator('td[data-pair="updateCurrentUser 405"] a').click();
    await expect.poll(() => page.locator('#journal-view').isVisible()).toBe(true);
    await page.locator(`#journal tbody tr[data-id="${refused.id}"]`).waitFor({ timeout: 20_000 });
    expect(new Set(await page.locator('#journal tbody tr .status').allTextContents())).toEqual(new Set(['405']));
  });

  it('When the page is used from the keyboard, then Tab reaches the rows, the arrows move between them and Enter opens one', async () => {
    const first = await call(sandbox.url, 'GET', '/2024-09/merchants', demo.owner.token);
    const second = await call(sandbox.url, 'GET', '/2024-09/users/current', demo.owner.token);
    const { page } = browser;
    await openInspector(page, sandbox.url);
    await page.locator(`#journal tbody tr[data-id="${first.id}"]`).waitFor({ timeout: 20_000 });
    let focusedRow: string | null = null;
    for (let presses = 0; presses < 30 && !focusedRow; presses++) {
      await page.keyboard.press('Tab');
      focusedRow = await page.evaluate(() => document.activeElement?.closest('#journal tbody tr')?.getAttribute('data-id') ?? null);
    }
    expect(focusedRow).toBe(second.id);
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-id'))).toBe(first.id);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#detail-heading').textContent()).toContain('GET /2024-09/merchants');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('#detail-heading').textContent()).toContain('GET /2024-09/users/current');
  });

  it('When axe-core checks the journal with an entry open and the coverage grid, then it finds no serious or critical issue', async () => {
    const refused = await call(sandbox.url, 'POST', '/2024-09/products', demo.owner.token, { merchant_id: demo.merchant, sku: 1, title: '' });
    const { page } = browser;
    await openInspector(page, sandbox.url);
    await openEntry(page, refused.id);
    expect(await seriousA11yIssues(page)).toEqual([]);
    await page.goto(`${sandbox.url}/_sandbox/inspector#coverage`);
    await page.locator('td[data-pair="createProduct 422"]').waitFor();
    await page.locator('#require-text').fill('createProduct 422\n', { force: true });
    expect(await seriousA11yIssues(page)).toEqual([]);
  });

  it('When a CI run is loaded, then the inspector opens on its journal, entries marked loaded, failed calls first', async () => {
    const source = await startSandbox({ logLevel: 'silent' });
    const ws = source.createWorkspace();
    await call(source.url, 'GET', '/2024-09/merchants', ws.tokens.owner);
    const failed = await call(source.url, 'POST', '/2024-09/products', ws.tokens.owner, { merchant_id: demo.merchant, sku: 'CI-1', title: '' });
    await call(source.url, 'GET', `/2024-09/merchants/${demo.merchant}`, ws.tokens.owner);
    const bundle = await (await fetch(`${source.url}/_sandbox/workspaces/${ws.id}/export`, { headers: { Authorization: `Bearer ${ws.tokens.owner}` } })).json();
    await source.close();
    const loaded = await startSandbox({ logLevel: 'silent', load: bundle });
    try {
      const { page } = browser;
      await openInspector(page, loaded.url);
      await expect.poll(() => page.locator('#journal tbody tr.loaded').count()).toBe(3);
      expect(await page.locator('#filters [name=order]').inputValue()).toBe('failed');
      expect(await page.locator('#journal tbody tr').first().getAttribute('data-id')).toBe(failed.id);
      expect(await page.locator('#loaded-note').textContent()).toMatch(/^3 entries came with a loaded run/);
      await page.locator('#journal tbody tr').first().locator('button').click();
      // The detail is drawn once the entry is read whole (`id=`), a fetch after the click.
      await expect.poll(() => page.locator('#detail .tag.loaded').count()).toBe(1);
      await page.screenshot({ path: join(ARTIFACTS, 'loaded-run-1280.png') });
    } finally {
      await loaded.close();
    }
  }, 60_000);
});
