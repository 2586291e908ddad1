import express from 'express';
import request from 'supertest';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsRouter, specForOrigin, type OpenApiDocument } from '../../src/sandbox/docs-page.js';
import { landingPageHtml, landingRouter } from '../../src/sandbox/landing-page.js';
import { describeWithBrowser, launchBrowser, serveOnLoopback, type BrowserSession, type LoopbackServer } from '../helpers/browser.js';

/** A served or checked-in contract as YAML, read back (js-yaml, the sandbox's own YAML library). */
const parseYaml = (text: string) =>
  load(text) as OpenApiDocument & { servers: { url: string }[]; paths: Record<string, Record<string, { operationId: string }>> };

// A tiny contract: one bearer-protected operation (to prove try-it sends the token to this server) and one
// sandbox operation under its own tag.
const spec = {
  openapi: '3.1.0',
  info: { title: 'Tiny', version: '1.0.0' },
  servers: [{ url: 'http://127.0.0.1:4010' }],
  security: [{ bearerAuth: [] }],
  tags: [{ name: 'Merchants' }, { name: 'Sandbox' }],
  paths: {
    '/2024-09/whoami': {
      get: {
        operationId: 'getWhoami',
        tags: ['Merchants'],
        summary: 'Echo the Authorization header',
        responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } },
      },
    },
    '/_sandbox/health': {
      get: {
        operationId: 'getSandboxHealth',
        tags: ['Sandbox'],
        summary: 'Health check',
        security: [],
        responses: { '200': { description: 'up' } },
      },
    },
  },
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
};

function tinyApp() {
  const app = express();
  app.use(docsRouter({ spec, demoToken: 'demo-owner-token' }));
  app.use(landingRouter({ demoTokens: [{ label: 'owner of Demo Outfitters', token: 'demo-owner-token' }] }));
  app.get('/2024-09/whoami', (req, res) => {
    res.json({ authorization: req.get('authorization') ?? null });
  });
  return app;
}

describe('docs router', () => {
  const app = tinyApp();

  it('When /openapi.json is fetched, then servers names the origin of the request and nothing else changes', async () => {
    const res = await request(app).get('/openapi.json').set('Host', 'docs.example.test:8080').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body.servers).toEqual([{ url: 'http://docs.example.test:8080', description: expect.any(String) }]);
    expect(res.body.paths).toEqual(spec.paths);
    expect(spec.servers).toEqual([{ url: 'http://127.0.0.1:4010' }]); // the original stays untouched
  });

  it('When /openapi.yaml is fetched, then it is YAML of the same document', async () => {
    const res = await request(app).get('/openapi.yaml').set('Host', '127.0.0.1:5555').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/yaml/);
    const doc = parseYaml(res.text);
    expect(doc.servers[0].url).toBe('http://127.0.0.1:5555');
    expect(doc.paths['/2024-09/whoami'].get.operationId).toBe('getWhoami');
  });

  it('When a proxy is trusted and says https, then the served server uses https', async () => {
    const proxied = express().set('trust proxy', true).use(docsRouter({ spec }));
    const res = await request(proxied).get('/openapi.json').set('Host', 'sandbox.example.test').set('X-Forwarded-Proto', 'https');
    expect(res.body.servers[0].url).toBe('https://sandbox.example.test');
  });

  it('When the Host header is not a plain host, then the contract keeps its own servers', async () => {
    const res = await request(app).get('/openapi.json').set('Host', 'evil.test/"><script>').expect(200);
    expect(res.body.servers).toEqual(spec.servers);
  });

  it('When /docs is opened without a trailing slash, then it redirects to /docs/ so relative assets load', async () => {
    const res = await request(app).get('/docs?x=1').expect(301);
    expect(res.headers.location).toBe('/docs/?x=1');
  });

  it('When /docs/ is opened, then Swagger UI is served with the explanation and the demo token', async () => {
    const res = await request(app).get('/docs/').expect(200);
    expect(res.text).toContain('swagger-ui-bundle.js');
    expect(res.text).toContain('sandbox-banner');
    expect(res.text).toContain('demo-owner-token');
  });

  it('When the init script is fetched, then it loads the served contract and persists authorization', async () => {
    const res = await request(app).get('/docs/swagger-ui-init.js').expect(200);
    expect(res.text).toContain('"url": "../openapi.json"');
    expect(res.text).toContain('"persistAuthorization": true');
    expect(res.text).toContain('preauthorizeApiKey');
  });

  it("When the init script is fetched, then Swagger UI's validator badge is off, so the page sends the contract's URL to no third party", async () => {
    const res = await request(app).get('/docs/swagger-ui-init.js').expect(200);
    expect(res.text).toContain('"validatorUrl": null');
  });

  it('When the swagger-ui-dist demo index is requested, then the reader is sent to the sandbox page', async () => {
    await request(app).get('/docs/index.html').expect(301).expect('Location', './');
  });

  it('When two apps have different demo tokens, then each init script keeps its own', async () => {
    const other = express().use(docsRouter({ spec, demoToken: 'demo-rival-token' }));
    const a = await request(app).get('/docs/').expect(200);
    const b = await request(other).get('/docs/').expect(200);
    expect(a.text).toContain('demo-owner-token');
    expect(b.text).toContain('demo-rival-token');
    expect(b.text).not.toContain('demo-owner-token');
  });

  it('When a demo token contains markup, then it cannot break out of the inline script', async () => {
    const evil = express().use(docsRouter({ spec, demoToken: '</script><script>alert(1)</script>' }));
    const res = await request(evil).get('/docs/').expect(200);
    expect(res.text).not.toContain('<script>alert(1)');
  });

  it('When specForOrigin has no origin, then it answers the contract unchanged', () => {
    expect(specForOrigin(spec, undefined)).toBe(spec);
  });
});

describe('landing page', () => {
  it('When / is opened, then it links the docs, health and the contract and lists demo tokens', async () => {
    const res = await request(tinyApp()).get('/').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    for (const href of ['docs/', '_sandbox/health', 'openapi.yaml', 'openapi.json']) expect(res.text).toContain(`href="${href}"`);
    expect(res.text).toContain('demo-owner-token');
    expect(res.text).toMatch(/Workflow/);
  });

  it("When the sandbox is hosted, then the landing page names no demo token (they answer 401 there) but the tab's own workspace", () => {
    const html = landingPageHtml({
      hosted: true,
      demoTokens: [{ label: 'owner', token: 'demo-owner-token' }],
      docsToken: { label: 'owner', token: 'demo-owner-token' },
    });
    expect(html).not.toContain('demo-owner-token');
    expect(html).toContain('workspace of this browser tab');
  });

  it('When a token label has markup, then it is escaped', () => {
    expect(landingPageHtml({ demoTokens: [{ label: '<b>x</b>', token: 't' }] })).toContain('&lt;b&gt;x');
  });
});

// One chromium for the file, launched by the first browser suite that runs and closed after the last; each suite
// serves its own site (its own origin), and every test opens its page anew.
let launched: Promise<BrowserSession> | undefined;
const fileBrowser = () => (launched ??= launchBrowser());
afterAll(async () => {
  await (await launched)?.close();
});

describeWithBrowser('docs page in a real browser', () => {
  let browser: BrowserSession;
  let site: LoopbackServer;

  beforeAll(async () => {
    site = await serveOnLoopback(tinyApp());
    browser = await fileBrowser();
  }, 60_000);

  afterAll(async () => {
    await site?.close();
  });

  it('When /docs is opened, then the operations render, the demo token is authorized and try-it calls this server with it', async () => {
    const { page } = browser;
    await page.goto(`${site.url}/docs`);
    await expect.poll(() => page.locator('#sandbox-active-token').textContent()).toBe('demo-owner-token');
    const op = page.locator('.opblock', { hasText: '/2024-09/whoami' });
    await op.waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.opblock').count()).toBe(2);
    await expect.poll(() => page.locator('.opblock-tag', { hasText: 'Sandbox' }).count()).toBe(1);

    // The Authorize button shows "locked" once a token is in place.
    await page.locator('.auth-wrapper .authorize.locked').waitFor({ timeout: 10_000 });

    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const body = op.locator('.responses-wrapper .live-responses-table .response-col_description pre').first();
    await body.waitFor({ timeout: 10_000 });
    await expect.poll(() => body.textContent()).toContain('Bearer demo-owner-token');
    await expect.poll(() => op.locator('.live-responses-table tbody .response-col_status').first().textContent()).toContain('200');
  }, 60_000);

  it('When the reader authorized with their own token, then a reload keeps it instead of the demo token', async () => {
    const { page } = browser;
    await page.goto(`${site.url}/docs/`);
    await page.locator('.auth-wrapper .authorize.locked').waitFor({ timeout: 15_000 });
    // Through the dialog, as a reader would: only the dialog's Authorize persists the token.
    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('button', { hasText: 'Logout' }).click();
    await dialog.locator('input').first().fill('my-own-token');
    await dialog.locator('button.authorize', { hasText: 'Authorize' }).click();
    await dialog.locator('button.btn-done').click();
    await expect.poll(() => page.locator('#sandbox-active-token').textContent()).toBe('my-own-token');
    await page.reload();
    await expect.poll(() => page.locator('#sandbox-active-token').textContent(), { timeout: 15_000 }).toBe('my-own-token');
    const op = page.locator('.opblock', { hasText: '/2024-09/whoami' });
    await op.waitFor({ timeout: 15_000 });
    await op.locator('.opblock-summary').click();
    await op.getByRole('button', { name: 'Try it out' }).click();
    await op.getByRole('button', { name: 'Execute' }).click();
    const body = op.locator('.live-responses-table .response-col_description pre').first();
    await body.waitFor({ timeout: 10_000 });
    await expect.poll(() => body.textContent()).toContain('Bearer my-own-token');
  }, 60_000);
});

describeWithBrowser('docs page over the real contract', () => {
  let browser: BrowserSession;
  let site: LoopbackServer;
  const real = parseYaml(readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8'));
  const operationCount = Object.values(real.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
    Object.keys(item).filter((k) => ['get', 'put', 'post', 'delete', 'patch'].includes(k)),
  ).length;

  beforeAll(async () => {
    site = await serveOnLoopback(express().use(docsRouter({ spec: real, demoToken: 'demo-owner-token' })));
    browser = await fileBrowser();
  }, 60_000);

  afterAll(async () => {
    await site?.close();
  });

  it('When /docs renders openapi.yaml, then every operation and the Sandbox tag appear without a render error', async () => {
    const { page } = browser;
    await page.goto(`${site.url}/docs/`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 15_000 }).toBe(operationCount);
    expect(await page.locator('.opblock-tag', { hasText: 'Sandbox' }).count()).toBe(1);
    expect(await page.locator('.errors-wrapper').count()).toBe(0);
  }, 60_000);
});
