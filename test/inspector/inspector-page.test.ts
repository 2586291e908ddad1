// The inspector page as the server serves it: an operation of the contract answering HTML under the pages' policy,
// its script and style sheet beside it, linked from the landing and docs pages, never journaled.
import request from 'supertest';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { testApp } from '../helpers/app.js';
import { hostedApp } from '../hosted/support.js';
import { parseRequireFile, REQUIRE_FILE_SOURCE, type requiredPairs } from '../../src/observe/require-file.js';
import type { CoverageReport } from '../../src/observe/world-observations.js';

describe('GET /_sandbox/inspector', () => {
  it('When a browser opens the inspector, then it gets HTML whose only script and style sheet come from the sandbox, under a policy with no inline script and no framing', async () => {
    const t = await testApp();
    const res = await request(t.app).get('/_sandbox/inspector').expect(200);
    expect(res.type).toBe('text/html');
    expect(res.text).toContain('<script src="inspector/inspector.js" defer></script>');
    expect(res.text).toContain('<link rel="stylesheet" href="inspector/inspector.css">');
    // No inline script and nothing from another origin.
    expect(res.text.match(/<script/g)).toHaveLength(1);
    expect(res.text).not.toMatch(/(src|href)="(https?:)?\/\//);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('When the script and style sheet are fetched, then they answer with their types and an ETag, and 304 when the browser holds them', async () => {
    const t = await testApp();
    const js = await request(t.app).get('/_sandbox/inspector/inspector.js').expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.text).toContain('var parseRequireFile = function');
    await request(t.app).get('/_sandbox/inspector/inspector.js').set('If-None-Match', js.headers.etag!).expect(304);
    const css = await request(t.app).get('/_sandbox/inspector/inspector.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    await request(t.app).post('/_sandbox/inspector/inspector.js').expect(404);
  });

  it('When the page and its assets are opened, then the journal does not list them', async () => {
    const t = await testApp();
    await request(t.app).get('/_sandbox/inspector').expect(200);
    await request(t.app).get('/_sandbox/inspector/inspector.js').expect(200);
    await request(t.app).get('/2024-09/merchants').set(t.auth('owner')).expect(200);
    const journal = await request(t.app).get('/_sandbox/requests').expect(200);
    expect(journal.body.data.map((e: { path: string }) => e.path)).toEqual(['/2024-09/merchants']);
  });

  it('When the inspector is asked with another method, then 405 naming GET; a query it does not name is ignored', async () => {
    const t = await testApp();
    const wrong = await request(t.app).post('/_sandbox/inspector').expect(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
    const tolerant = await request(t.app).get('/_sandbox/inspector?token=x').expect(200);
    expect(tolerant.headers['sandbox-ignored-fields']).toBe('query.token');
  });

  it('When the sandbox is hosted, then the page opens with no token and names no demo token', async () => {
    const h = await hostedApp();
    const res = await request(h.app).get('/_sandbox/inspector').expect(200);
    expect(res.text).toContain('data-hosted="true"');
    expect(res.text).not.toContain('demo-owner-token');
  });

  it('When a reader is on the landing page or the docs, then a link leads to the inspector', async () => {
    const t = await testApp();
    expect((await request(t.app).get('/').expect(200)).text).toContain('<a href="_sandbox/inspector">');
    const docs = await request(t.app).get('/docs/').expect(200);
    expect(docs.text).toContain('_sandbox/inspector');
  });
});

describe('the --require grammar the page runs', () => {
  const report = {
    operations: [
      { operation_id: 'getProduct', documented: ['200', '401', '404'], answered: ['200'], undocumented: [] },
      { operation_id: 'listProducts', documented: ['200', '401'], answered: [], undocumented: [] },
    ],
  } as unknown as CoverageReport;
  const file = 'getProduct 404\n* 4xx # every 4xx of the called operations\n';

  it('When the page parses a --require file, then its functions are the CLI gate’s own and read it alike', () => {
    const browser = runInNewContext(`${REQUIRE_FILE_SOURCE}; ({ parseRequireFile, requiredPairs })`) as {
      parseRequireFile: typeof parseRequireFile;
      requiredPairs: typeof requiredPairs;
    };
    const parsed = browser.parseRequireFile(file, 'require file');
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parseRequireFile(file, 'require file'));
    if (!parsed.ok) throw new Error('parsed');
    expect(browser.requiredPairs(parsed.value, report, 'f').ok && browser.requiredPairs(parsed.value, report, 'f')).toEqual({
      ok: true,
      value: ['getProduct 401', 'getProduct 404'],
    });
    expect(browser.parseRequireFile('getProduct four', 'f')).toEqual({
      ok: false,
      errors: ["f:1: expected '<operationId or *> <status like 404 or 4xx>', got 'getProduct four'"],
    });
  });
});

describe('GET /_sandbox/inspector/ (a trailing slash)', () => {
  // What the page's relative URLs resolve to in a browser: against its <base> when it names one, else its own URL.
  const resolver = (pageUrl: string, html: string) => {
    const base = /<base href="([^"]*)">/.exec(html)?.[1];
    const from = base === undefined ? pageUrl : new URL(base, pageUrl).href;
    return (ref: string) => new URL(ref, from).pathname;
  };

  it("When the page is opened with a trailing slash, then its style sheet, script, links and the script's reads resolve where they do without it", async () => {
    const t = await testApp();
    const plain = await request(t.app).get('/_sandbox/inspector').expect(200);
    const slashed = await request(t.app).get('/_sandbox/inspector/').expect(200);
    const refs = [...slashed.text.matchAll(/<(?:link|script|a)\b[^>]*?(?:href|src)="([^"#][^"]*)"/g)].map((m) => m[1]!);
    expect(refs).toEqual(expect.arrayContaining(['inspector/inspector.css', 'inspector/inspector.js', '../docs/']));
    // The script reads the journal and the coverage relative to the page (requests?..., coverage?...).
    const reads = ['requests?limit=1', 'coverage?format=json', 'workspaces'];
    const fromPlain = resolver('http://127.0.0.1/_sandbox/inspector', plain.text);
    const fromSlashed = resolver('http://127.0.0.1/_sandbox/inspector/', slashed.text);
    for (const ref of [...refs, ...reads]) expect(fromSlashed(ref)).toBe(fromPlain(ref));
    await request(t.app).get(fromSlashed('inspector/inspector.js')).expect(200);
    await request(t.app).get(fromSlashed('inspector/inspector.css')).expect(200);
    await request(t.app).get(fromSlashed('requests?limit=1')).expect(200);
  });
});

describe('a query the page and the probe do not take', () => {
  it.each(['/_sandbox/inspector', '/_sandbox/health'])(
    'When %s is asked with ?_=1, then it is ignored (200) by default and refused as documented (422) on a --strict server',
    async (path) => {
      const tolerant = await testApp();
      const ignored = await request(tolerant.app).get(`${path}?_=1`).expect(200);
      expect(ignored.headers['sandbox-ignored-fields']).toBe('query._');
      const strict = await testApp({ strict: true });
      const refused = await request(strict.app).get(`${path}?_=1`).expect(422);
      expect(refused.body).toEqual({
        message: 'The _ query parameter is not part of the contract.',
        errors: { _: ['The _ query parameter is not part of the contract.'] },
      });
    },
  );
});
