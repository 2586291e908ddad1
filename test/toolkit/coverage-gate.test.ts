import { describe, expect, it } from 'vitest';
import { parseClientArgs } from '../../src/cli/client-args.js';
import { countedReport, decideGate } from '../../src/cli/coverage-gate.js';
import { parseRequireFile, requiredPairs, uncountedPairs, type Requirement } from '../../src/observe/require-file.js';
import { listOperations, type ContractDocument } from '../../src/contract/document/load-contract.js';
import { CoverageTracker } from '../../src/observe/world-observations.js';
import { gateLines, renderJunit } from '../../src/observe/coverage-formats.js';

/** A small contract: three operations, ten documented pairs. */
const operations = listOperations({
  openapi: '3.1.0',
  info: { title: 't', version: '1' },
  paths: {
    '/p': {
      get: { operationId: 'listProducts', tags: ['Products'], responses: { '200': {}, '401': {}, '422': {} } },
      post: { operationId: 'createProduct', tags: ['Products'], responses: { '201': {}, '401': {}, '404': {}, '422': {} } },
    },
    '/p/{id}': { get: { operationId: 'getProduct', tags: ['Products'], responses: { '200': {}, '404': {}, '422': {} } } },
  },
} as ContractDocument);

/** The report after the run answered `answered` (operationId, status). */
function reportAfter(...answered: [string, number][]) {
  const tracker = new CoverageTracker(operations);
  for (const [op, status] of answered) tracker.record(op, status);
  return tracker.report();
}

const requirements = (text: string): Requirement[] => {
  const parsed = parseRequireFile(text, 'team.require');
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return parsed.value;
};

describe('the --require file', () => {
  it('When it holds pairs, classes, wildcards, comments and blank lines, then each pair line is read with its line number', () => {
    const text = '# what the team needs\n\ngetProduct 404\ncreateProduct   4XX   # every documented 4xx\n* 422\r\n';
    expect(requirements(text)).toEqual([
      { line: 3, text: 'getProduct 404', operation: 'getProduct', status: '404' },
      { line: 4, text: 'createProduct   4XX', operation: 'createProduct', status: '4xx' },
      { line: 5, text: '* 422', operation: '*', status: '422' },
    ]);
  });

  it('When lines are malformed, then every one is refused naming the file, its line and its text', () => {
    const parsed = parseRequireFile('getProduct 404\ngetProduct\nget-product 404\ngetProduct 4044\ngetProduct 404 extra\n* 6xx\n', 'team.require');
    expect(parsed).toEqual({
      ok: false,
      errors: [2, 3, 4, 5, 6].map((n) =>
        expect.stringMatching(new RegExp(`^team\\.require:${n}: expected '<operationId or \\*> <status like 404 or 4xx>', got '`)),
      ),
    });
    expect(parseRequireFile('# nothing\n\n', 'empty.require')).toEqual({
      ok: false,
      errors: ["empty.require: names no pairs (lines like 'getProduct 404' or '* 422')"],
    });
  });

  it('When pairs are resolved against the report, then `*` is every operation the run called and a class every documented status in it', () => {
    const report = reportAfter(['getProduct', 200], ['createProduct', 201]);
    const pairs = requiredPairs(requirements('* 4xx\nlistProducts 200\n'), report, 'team.require');
    expect(pairs).toEqual({
      ok: true,
      value: ['listProducts 200', 'createProduct 401', 'createProduct 404', 'createProduct 422', 'getProduct 404', 'getProduct 422'],
    });
  });

  it('When a line names an operation the contract lacks or a status it does not document, then it is refused naming the line', () => {
    const report = reportAfter();
    expect(requiredPairs(requirements('getproduct 404\nlistProducts 404\nlistProducts 5xx\n* 418\n'), report, 'team.require')).toEqual({
      ok: false,
      errors: [
        "team.require:1: the contract has no operation 'getproduct' (operationIds are case-sensitive)",
        'team.require:2: listProducts documents no 404 (it documents 200, 401, 422)',
        'team.require:3: listProducts documents no 5xx (it documents 200, 401, 422)',
      ],
    });
  });
});

describe('the coverage gate', () => {
  it('When every required pair was exercised and the share reaches --fail-under exactly, then it passes', () => {
    // 3 of the 6 pairs of the two operations called: exactly 50%.
    const report = reportAfter(['getProduct', 200], ['getProduct', 404], ['listProducts', 200]);
    const gate = decideGate(report, ['getProduct 404'], 50);
    expect(gate).toMatchObject({ passed: true, threshold: { required: 50, passed: true, answered: 3, documented: 6, operations: 2 }, requiredCount: 1 });
    expect([...gate.missed]).toEqual([]);
  });

  it('When the share is below --fail-under by a hair, then it fails, though the rounded percentage reads the same', () => {
    // 1 of 3 pairs of a one-operation report is 33.33...%, shown as 33.3.
    const one = new CoverageTracker(operations.slice(0, 1));
    one.record('listProducts', 200);
    const report = one.report();
    expect(report.totals.percent).toBe(33.3);
    expect(decideGate(report, undefined, 33.34).passed).toBe(false);
    expect(decideGate(report, undefined, 33.33).passed).toBe(true);
  });

  it("When a client suite called 2 of 3 operations, then --fail-under measures those operations' pairs, and the contract-wide share stays in the report", () => {
    // The contract-wide share is 3 of 10 (30%); the client's is 3 of 6 (50%).
    const report = reportAfter(['getProduct', 200], ['getProduct', 404], ['listProducts', 200]);
    expect(report.totals.percent).toBe(30);
    expect(decideGate(report, undefined, 50).passed).toBe(true);
    expect(decideGate(report, undefined, 50.1).passed).toBe(false);
    expect(gateLines(report, decideGate(report, undefined, 60))).toEqual([
      'Failed --fail-under 60: 3 of 6 documented statuses of the 2 operations the run called (50%); contract-wide 3 of 10 documented statuses (30%).',
    ]);
  });

  it('When the run called no operation, then --fail-under fails (a share of 0 of 0 proves nothing), saying the run called none; --fail-under 0 passes', () => {
    const report = reportAfter();
    const gate = decideGate(report, undefined, 50);
    expect(gate.passed).toBe(false);
    expect(gateLines(report, gate)).toEqual([
      'Failed --fail-under 50: the run called no operation of the contract, so there is no share to measure (did the tests run against this sandbox and workspace?); contract-wide 0 of 10 documented statuses (0%).',
    ]);
    expect(decideGate(report, undefined, 0).passed).toBe(true);
  });

  it('When a required pair was not exercised, then it fails and names the missed pairs; the missing pairs of the operations called are listed by operation', () => {
    const report = reportAfter(['getProduct', 200]);
    const gate = decideGate(report, ['getProduct 200', 'getProduct 404', 'createProduct 422']);
    expect(gate.passed).toBe(false);
    expect([...gate.missed]).toEqual(['getProduct 404', 'createProduct 422']);
    expect(gate.threshold).toBeUndefined();
    expect([...gate.missingByOperation]).toEqual([['getProduct', ['404', '422']]]);
  });
});

describe('what the gate counts', () => {
  /** One upload operation whose 503 (through a $ref) no client request causes. */
  const upload = listOperations({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: { '/i': { post: { operationId: 'createImage', responses: { '201': {}, '422': {}, '503': { $ref: '#/components/responses/Busy' } } } } },
    components: { responses: { Busy: { description: 'short of memory', 'x-sandbox-client-causable': false } } },
  } as ContractDocument);

  it('When a response says x-sandbox-client-causable: false, then coverage lists it, a * line leaves it out and names it, and --fail-under does not count it', () => {
    const tracker = new CoverageTracker(upload);
    tracker.record('createImage', 422);
    const report = tracker.report();
    expect(report.operations[0]!.not_client_causable).toEqual(['503']);
    const uncounted = uncountedPairs(report, false);
    expect(requiredPairs(requirements('* 5xx\n* 422\n'), report, 'team.require', uncounted)).toEqual({
      ok: true,
      value: ['createImage 422'],
      skipped: [{ line: 1, text: '* 5xx', pairs: ['createImage 503'] }],
    });
    expect(decideGate(report, undefined, 50, uncounted).threshold).toMatchObject({ answered: 1, documented: 2, uncounted: 1, passed: true });
    expect(decideGate(report, undefined, 50, uncountedPairs(report, true)).threshold).toMatchObject({ answered: 1, documented: 3, passed: false });
  });

  it('When an answer was forced with Prefer: code=, then it is not exercised, unless forced answers are counted', () => {
    const tracker = new CoverageTracker(upload);
    tracker.record('createImage', 201, true);
    const report = tracker.report();
    expect(decideGate(report, ['createImage 201']).passed).toBe(false);
    const counted = countedReport(report, true);
    expect(counted.operations[0]).toMatchObject({ answered: ['201'], missing: ['422', '503'], forced: [] });
    expect(counted.totals).toMatchObject({ answered_statuses: 1, operations_exercised: 1 });
    expect(decideGate(counted, ['createImage 201']).passed).toBe(true);
  });
});

describe("the client commands' arguments", () => {
  const parse = (args: string[], env: Record<string, string> = {}) => parseClientArgs('coverage', args, env);

  it('When a workspace token is given, then its workspace is derived from it and not named in the request; --workspace names one', () => {
    expect(parse(['--token', 'ws_r1-3f9a1c0b7d2e.secret.demo-owner-token'])).toMatchObject({
      ok: true,
      options: { workspace: 'r1-3f9a1c0b7d2e', workspaceNamed: false, url: 'http://127.0.0.1:4010', format: 'markdown' },
    });
    expect(parse(['--token', 'admin-secret', '--workspace', '3f9a1c0b7d2e'])).toMatchObject({
      ok: true,
      options: { workspace: '3f9a1c0b7d2e', workspaceNamed: true },
    });
    expect(parse([], { SANDBOX_URL: 'http://sandbox:8080/', SANDBOX_TOKEN: 'ws_abc.x' })).toMatchObject({
      ok: true,
      options: { url: 'http://sandbox:8080', token: 'ws_abc.x', workspace: 'abc' },
    });
    expect(parseClientArgs('export', ['--url=http://127.0.0.1:9999'])).toMatchObject({
      ok: true,
      options: { command: 'export', url: 'http://127.0.0.1:9999', workspaceNamed: false },
    });
  });

  it('When flags are wrong, then each problem is named, and a flag of the other command is refused', () => {
    expect(parse(['--fail-under', '101', '--format', 'yaml', '--url', 'ftp://x', 'extra', '--url-typo'])).toEqual({
      ok: false,
      errors: [
        "Unexpected argument 'extra'",
        "coverage takes no option '--url-typo'; it takes --url, --token, --workspace, --require, --fail-under, --count-forced, --format, --help",
        "--url must be the sandbox's http(s) address, e.g. http://127.0.0.1:4010, got 'ftp://x'",
        "--fail-under must be a percentage from 0 to 100, got '101'",
        "--format must be one of markdown, junit, junit-gate, json, got 'yaml'",
      ],
    });
    expect(parse(['--url', '--token', 'x'])).toEqual({ ok: false, errors: ['--url needs a value'] });
    expect(parseClientArgs('export', ['--fail-under', '50'])).toMatchObject({
      ok: false,
      errors: [expect.stringContaining("export takes no option '--fail-under'")],
    });
  });

  it("When the gate's JUnit is asked for (junit-gate), then it holds only the required pairs and the threshold case, no skipped pair", () => {
    const report = reportAfter(['getProduct', 200]);
    const gate = decideGate(report, ['getProduct 200', 'getProduct 404'], 50);
    const xml = renderJunit({ workspace: 'default', ...report }, gate, { gateOnly: true });
    const names = [...xml.matchAll(/<testcase classname="[^"]*" name="([^"]*)"/g)].map((m) => m[1]);
    expect(names).toEqual(['getProduct 200', 'getProduct 404', 'coverage at least 50%']);
    expect(xml).not.toContain('<skipped');
  });
});
