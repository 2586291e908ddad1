import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/document/load-contract.js';
import { operationFacts } from '../../src/contract/document/operation-facts.js';
import { checkTextMedia } from '../../src/pipeline/text-media.js';
import { renderJunit, renderMarkdown, type WorkspaceCoverage } from '../../src/observe/coverage-formats.js';
import { contractOperations, deref } from '../helpers/contract-requests.js';
import { testApp, type TestApp } from '../helpers/app.js';
import { parseXml, type XmlElement } from '../helpers/xml-tree.js';

/** A workspace whose client exercised listMerchants 200 and 422 and getMerchant 404. */
async function exercisedWorkspace(t: TestApp) {
  const ws = (await request(t.app).post('/_sandbox/workspaces').expect(201)).body.data as { id: string; tokens: { owner: string } };
  const auth = t.bearer(ws.tokens.owner);
  await request(t.app).get('/2024-09/merchants').set(auth).expect(200);
  await request(t.app).get('/2024-09/merchants?per_page=0').set(auth).expect(422);
  await request(t.app).get('/2024-09/merchants/00000000-0000-4000-8000-000000000000').set(auth).expect(404);
  const json = (await request(t.app).get('/_sandbox/coverage').set(auth).expect(200)).body.data as WorkspaceCoverage;
  return { ws, auth, json };
}

const versionedOperations = contractOperations.filter((op) => !op.tags.includes('Sandbox'));
const documentedPairs = versionedOperations.reduce((n, op) => n + op.statuses.length, 0);
const all = (root: XmlElement, name: string): XmlElement[] => [...(root.name === name ? [root] : []), ...root.children.flatMap((c) => all(c, name))];

describe('GET /_sandbox/coverage?format=', () => {
  it('When the report is asked for as junit, then it is well-formed JUnit XML with one testcase per documented pair, those not exercised skipped', async () => {
    const t = await testApp();
    const { auth } = await exercisedWorkspace(t);
    const res = await request(t.app).get('/_sandbox/coverage?format=junit').set(auth).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    const root = parseXml(res.text);
    expect(root.name).toBe('testsuites');
    const cases = all(root, 'testcase');
    expect(cases.length).toBe(documentedPairs);
    expect(new Set(cases.map((c) => c.attrs.name)).size).toBe(documentedPairs);
    const passed = cases.filter((c) => c.children.length === 0).map((c) => c.attrs.name);
    expect(passed).toEqual(['listMerchants 200', 'listMerchants 422', 'getMerchant 404']);
    expect(cases.every((c) => c.children.every((child) => child.name === 'skipped' && /^not exercised: /.test(child.attrs.message!)))).toBe(true);
    expect(root.attrs).toMatchObject({ tests: String(documentedPairs), skipped: String(documentedPairs - 3), failures: '0', errors: '0' });
    // Each suite is a tag; its counts are its own cases'.
    for (const suite of root.children) {
      expect(suite.name).toBe('testsuite');
      expect(Number(suite.attrs.tests)).toBe(suite.children.length);
      expect(Number(suite.attrs.skipped)).toBe(suite.children.filter((c) => c.children.length > 0).length);
    }
    expect(root.children.map((s) => s.attrs.name)).toContain('Merchants');
    expect(t.errors).toEqual([]);
  });

  it('When the report is asked for as markdown, then it is a heading with the totals and a table with one row per operation', async () => {
    const t = await testApp();
    const { auth, json } = await exercisedWorkspace(t);
    const res = await request(t.app).get('/_sandbox/coverage?format=markdown').set(auth).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/markdown/);
    const lines = res.text.split('\n');
    expect(lines[0]).toBe(`### Contract coverage of workspace \`${json.workspace}\`: 3 of ${documentedPairs} documented statuses (${json.totals.percent}%)`);
    const table = lines.filter((line) => line.startsWith('|'));
    expect(table[0]).toBe('| Operation | Method and path | Exercised | Not exercised |');
    expect(table[1]).toBe('| --- | --- | --- | --- |');
    const rows = table.slice(2).map((line) => line.slice(2, -2).split(' | '));
    expect(rows.length).toBe(versionedOperations.length);
    expect(rows.every((cells) => cells.length === 4)).toBe(true);
    const list = versionedOperations.find((op) => op.operationId === 'listMerchants')!;
    expect(rows.find((cells) => cells[0] === 'listMerchants')).toEqual([
      'listMerchants',
      'GET /2024-09/merchants',
      '200, 422',
      list.statuses.filter((s) => s !== 200 && s !== 422).join(', '),
    ]);
  });

  it('When format is json or left out, then the answer is the JSON report; another format is refused with 422 naming it', async () => {
    const t = await testApp();
    const { auth, json } = await exercisedWorkspace(t);
    const asJson = await request(t.app).get('/_sandbox/coverage?format=json').set(auth).expect(200);
    expect(asJson.headers['content-type']).toMatch(/^application\/json/);
    expect(asJson.body.data).toEqual(json);
    const refused = await request(t.app).get('/_sandbox/coverage?format=yaml').set(auth).expect(422);
    expect(Object.keys(refused.body.errors)).toEqual(['format']);
    // The token decides the world as for JSON: another workspace's report is not this one's.
    await request(t.app).get('/_sandbox/coverage?format=junit').set(t.auth('owner')).expect(200);
    expect(t.errors).toEqual([]);
  });

  it.each(['application/json', 'application/xml', 'text/markdown', '*/*'])(
    'When the form is left to Accept (%s), then the answer says it varies with Accept; with format= it does not',
    async (accept) => {
      const t = await testApp();
      const negotiated = await request(t.app).get('/_sandbox/coverage').set('Accept', accept).expect(200);
      expect(negotiated.headers.vary).toBe('Accept');
      const chosen = await request(t.app).get('/_sandbox/coverage?format=markdown').set('Accept', accept).expect(200);
      expect(chosen.headers.vary).toBeUndefined();
    },
  );

  it('When CORS names origins (a configured list), then the negotiated answer varies with Origin and Accept both', async () => {
    const t = await testApp({ corsOrigins: ['https://docs.example.com'] });
    const res = await request(t.app).get('/_sandbox/coverage').set('Origin', 'https://docs.example.com').set('Accept', 'text/markdown').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://docs.example.com');
    expect(String(res.headers.vary).split(/,\s*/).sort()).toEqual(['Accept', 'Origin']);
  });

  it("When the contract's examples of the three forms are read, then the junit and markdown ones are the JSON one rendered", () => {
    const op = contractOperations.find((o) => o.operationId === 'getSandboxCoverage')!;
    const content = (deref(op.operation.responses!['200']) as { content: Record<string, { example: unknown }> }).content;
    const data = (content['application/json']!.example as { data: WorkspaceCoverage }).data;
    expect(Object.keys(content)).toEqual(['application/json', 'application/xml', 'text/markdown']);
    expect(renderJunit(data)).toBe(content['application/xml']!.example);
    expect(renderMarkdown(data)).toBe(content['text/markdown']!.example);
  });
});

describe('A text answer is checked against the contract like a JSON one', () => {
  const facts = operationFacts(loadContract().doc);

  it('When a handler answers a media type its status documents, then it passes; any other type or status is a bug (thrown, so 500)', () => {
    const coverage = facts.get('getSandboxCoverage');
    expect(() => checkTextMedia(coverage, 'getSandboxCoverage', { status: 200, body: '<x/>', type: 'application/xml' })).not.toThrow();
    expect(() => checkTextMedia(coverage, 'getSandboxCoverage', { status: 200, body: '# x', type: 'text/markdown' })).not.toThrow();
    expect(() => checkTextMedia(coverage, 'getSandboxCoverage', { status: 200, body: 'a,b', type: 'text/csv' })).toThrow(/text\/csv/);
    expect(() => checkTextMedia(coverage, 'getSandboxCoverage', { status: 404, body: '<x/>', type: 'application/xml' })).toThrow(/404/);
    expect(() => checkTextMedia(facts.get('listMerchants'), 'listMerchants', { status: 200, body: '# x', type: 'text/markdown' })).toThrow();
    expect(() => checkTextMedia(facts.get('listMerchants'), 'listMerchants', { status: 200, body: { data: [] } })).not.toThrow();
  });

  it('When the contract is read, then only the coverage report and the inspector page document media types other than JSON', () => {
    const withText = [...facts].filter(([, f]) => (f.textMedia?.size ?? 0) > 0).map(([id]) => id);
    expect(withText).toEqual(['getSandboxCoverage', 'getSandboxInspector']);
  });
});
