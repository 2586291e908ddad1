// A reader executes every operation's example on the docs page of a local sandbox, deletes first, without typing
// (the workspace to delete is `example`, which a local sandbox keeps and a reset of the default world brings back):
// each answers its success status. A second pass over the same world answers each success status or the documented
// uniqueness 422, nothing else.
//
// Each execution is what the Execute button does, driven through the page's own Swagger UI system instead of
// clicks: the pre-filled values come from the contract as the page rendered it (its plugin leaves only required
// parameters filled), and specActions.execute sends them through Swagger UI's request path - the security the
// reader authorized, the page's request interceptor (its world switch), the response stored for display.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/start-sandbox.js';
import { describeWithBrowser, launchBrowser, type BrowserSession } from '../helpers/browser.js';
import { contractOperations } from '../helpers/contract-requests.js';
import { successStatus } from '../helpers/example-requests.js';

const DESTRUCTIVE = /^(delete|remove|revoke)/;
/** Deletes first, then the rest in the contract's order. */
const ORDER = [...contractOperations.filter((op) => DESTRUCTIVE.test(op.operationId)), ...contractOperations.filter((op) => !DESTRUCTIVE.test(op.operationId))];

/** One operation for the page: where it lives, what a reader types (beyond the pre-filled values). */
interface PageCall {
  operationId: string;
  path: string;
  method: string;
  fill: Record<string, string>;
}

interface PageAnswer {
  operationId: string;
  status: number;
  text: string;
}

/**
 * Runs in the page, as source text (a transpiled function would carry the test runner's helpers into the page):
 * fills each operation as its parameter rows and body editor do (a value's example, else its schema's example,
 * else its default; the body's media example), executes it with Swagger UI's own action and reads the answer
 * Swagger UI stored for the operation.
 */
const EXECUTE_IN_PAGE = `async (calls) => {
  const ui = window.ui;
  const resolved = (c) => ui.specSelectors.specResolvedSubtree(['paths', c.path, c.method]);
  // Swagger UI resolves an operation's $refs when it is expanded; resolving the paths once does it for all.
  ui.specActions.requestResolvedSubtree(['paths']);
  for (let i = 0; calls.some((c) => !resolved(c)); i++) {
    if (i > 600) throw new Error('unresolved: ' + calls.filter((c) => !resolved(c)).map((c) => c.operationId).join(', '));
    await new Promise((r) => setTimeout(r, 50));
  }
  const firstExample = (holder) => holder.example ?? (holder.examples ? Object.values(holder.examples)[0]?.value : undefined);
  // Every state change redraws each operation shown; with a filter that matches no tag the page draws none while
  // the calls run (the request path does not depend on what is drawn), and the reader's filter comes back after.
  const filter = ui.layoutSelectors.currentFilter();
  ui.layoutActions.updateFilter('\\u0000');
  const answers = [];
  for (const c of calls) {
    const operation = resolved(c);
    const pathMethod = [c.path, c.method];
    const params = operation.get('parameters');
    for (const param of params ? params.toJS() : []) {
      const value = c.fill[param.name] ?? firstExample(param) ?? param.schema?.example ?? param.schema?.default;
      if (value === undefined) continue;
      const row = params.find((p) => p.get('name') === param.name && p.get('in') === param.in);
      ui.specActions.changeParamByIdentity(pathMethod, row, typeof value === 'string' ? value : JSON.stringify(value));
    }
    const content = operation.getIn(['requestBody', 'content']);
    if (content) {
      const [type, media] = Object.entries(content.toJS())[0];
      const example = firstExample(media);
      ui.oas3Actions.setRequestContentType({ value: type, pathMethod });
      if (example !== undefined) ui.oas3Actions.setRequestBodyValue({ value: JSON.stringify(example, null, 2), pathMethod });
    }
    ui.specActions.clearResponse(c.path, c.method);
    await ui.specActions.execute({ operation, path: c.path, method: c.method });
    const response = ui.specSelectors.responseFor(c.path, c.method);
    answers.push({ operationId: c.operationId, status: Number(response?.get('status')), text: String(response?.get('text') ?? response?.get('err') ?? '') });
  }
  ui.layoutActions.updateFilter(filter);
  return answers;
}`;

/** Executes the calls in the page, in order, and answers what Swagger UI stored for each. */
async function executeInPage(browser: BrowserSession, calls: PageCall[]): Promise<PageAnswer[]> {
  return browser.page.evaluate(`(${EXECUTE_IN_PAGE})(${JSON.stringify(calls)})`) as Promise<PageAnswer[]>;
}

describeWithBrowser('every example on the docs page', () => {
  let sandbox: RunningSandbox;
  let browser: BrowserSession;

  beforeAll(async () => {
    sandbox = await startSandbox({ logLevel: 'silent' });
    browser = await launchBrowser();
    await browser.page.goto(`${sandbox.url}/docs/`);
    // The page is ready once Swagger UI rendered the contract and the page authorized its demo token.
    await browser.page.locator('.opblock').first().waitFor({ timeout: 60_000 });
    await browser.page.waitForFunction(() => (window as any).ui?.authSelectors.authorized()?.size > 0, undefined, { timeout: 30_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('When every example is executed, deletes first, then each answers its success status; a second pass answers success or the uniqueness 422', async () => {
    const seen: string[] = [];
    for (const pass of [1, 2]) {
      const calls: PageCall[] = ORDER.map((op) => ({
        operationId: op.operationId,
        path: op.path,
        method: op.method.toLowerCase(),
        fill: {},
      }));
      const answers = await executeInPage(browser, calls);
      expect(answers.map((a) => a.operationId)).toEqual(calls.map((c) => c.operationId));
      for (const [i, { operationId, status, text }] of answers.entries()) {
        const expected = successStatus(ORDER[i]!);
        const uniqueness = status === 422 && /already|taken|exists/i.test(text);
        if (status !== expected && !(pass === 2 && uniqueness))
          seen.push(`pass ${pass} ${operationId}: ${status} (expected ${expected}) ${text.slice(0, 200)}`);
      }
    }
    expect(seen).toEqual([]);
  }, 120_000);
});
