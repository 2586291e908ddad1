// The coverage report as a CI reads it: JUnit XML for its test report, Markdown for a job summary or a pull-request
// comment. Both are rendered from the JSON report (the same data, already checked against the contract), by the
// server for GET /_sandbox/coverage?format=… and by the CLI's coverage gate, which adds its verdict.
import type { CoverageReport } from './world-observations.js';

/** The report of GET /_sandbox/coverage (JSON's `data`): which world, and its coverage. */
export type WorkspaceCoverage = CoverageReport & { workspace: string };

/** One (operation, documented status) pair, keyed `operationId status` as a --require file names it. */
export interface CoveragePair {
  key: string;
  operationId: string;
  method: string;
  path: string;
  tag: string;
  status: string;
  exercised: boolean;
}

/** What the CLI's gate decided, for the renderers to show; the server's own report has none. */
export interface GateMarks {
  /** Keys of the pairs the gate required and the run did not exercise. */
  missed: ReadonlySet<string>;
  /** How many pairs --require named (undefined without --require). */
  requiredCount?: number;
  /** Keys of the pairs --require named. */
  required?: ReadonlySet<string>;
  /**
   * --fail-under: the percentage asked for, whether the run reached it, and what it measured: the documented pairs of
   * the operations the run called (`operations`), of which `answered` were exercised.
   */
  threshold?: {
    required: number;
    passed: boolean;
    answered: number;
    documented: number;
    operations: number;
    /** Pairs of those operations left out: statuses a client's requests cannot bring about (`not_client_causable`). */
    uncounted?: number;
  };
  /** --count-forced: answers forced with `Prefer: code=` were counted as exercised. */
  countForced?: boolean;
}

/** Every documented pair of the report, in the contract's order. */
export function pairsOf(report: CoverageReport): CoveragePair[] {
  return report.operations.flatMap((op) => {
    const answered = new Set(op.answered);
    return op.documented.map((status) => ({
      key: `${op.operation_id} ${status}`,
      operationId: op.operation_id,
      method: op.method,
      path: op.path,
      tag: op.tag ?? 'Untagged',
      status,
      exercised: answered.has(status),
    }));
  });
}

/** "12 of 310 documented statuses (3.9%)" */
export const coverageSummary = ({ totals }: CoverageReport): string =>
  `${totals.answered_statuses} of ${totals.documented_statuses} documented statuses (${totals.percent}%)`;

const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const counts = (cases: { outcome: 'passed' | 'skipped' | 'failure' }[]) =>
  `tests="${cases.length}" failures="${cases.filter((c) => c.outcome === 'failure').length}" errors="0" skipped="${cases.filter((c) => c.outcome === 'skipped').length}" time="0"`;

interface TestCase {
  suite: string;
  classname: string;
  name: string;
  outcome: 'passed' | 'skipped' | 'failure';
  message?: string;
}

/**
 * JUnit XML: one testcase per pair, one testsuite per tag. A pair not exercised is skipped (an observation, which
 * CI test reports list without failing the run); one the gate required is a failure, and so is a missed
 * --fail-under (its own testcase, in the suite "Coverage gate").
 */
export function renderJunit(report: WorkspaceCoverage, gate?: GateMarks, { gateOnly = false } = {}): string {
  // gateOnly (the CLI's `--format junit-gate`): only the gate's own cases, the required pairs and the threshold, so a
  // team's test report gains what it asked for and not a skipped case per pair of the contract.
  const pairs = gateOnly ? pairsOf(report).filter((pair) => gate?.required?.has(pair.key)) : pairsOf(report);
  const cases: TestCase[] = pairs.map((pair) => {
    const base = { suite: pair.tag, classname: pair.operationId, name: pair.key };
    if (pair.exercised) return { ...base, outcome: 'passed' };
    const why = `${pair.method} ${pair.path} never answered ${pair.status}`;
    return gate?.missed.has(pair.key)
      ? { ...base, outcome: 'failure', message: `required but not exercised: ${why}` }
      : { ...base, outcome: 'skipped', message: `not exercised: ${why}` };
  });
  if (gate?.threshold) {
    const { required, passed } = gate.threshold;
    const name = `coverage at least ${required}%`;
    cases.push({
      suite: 'Coverage gate',
      classname: 'coverage',
      name,
      outcome: passed ? 'passed' : 'failure',
      message: passed ? undefined : `${calledSummary(gate.threshold)}, below ${required}%`,
    });
  }
  const suites = new Map<string, TestCase[]>();
  for (const c of cases) suites.set(c.suite, [...(suites.get(c.suite) ?? []), c]);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`Contract coverage of workspace ${report.workspace}: ${coverageSummary(report)}`)}" ${counts(cases)}>`,
  ];
  for (const [suite, members] of suites) {
    lines.push(`  <testsuite name="${xml(suite)}" ${counts(members)}>`);
    for (const c of members) {
      const open = `    <testcase classname="${xml(c.classname)}" name="${xml(c.name)}" time="0"`;
      if (c.outcome === 'passed') lines.push(`${open}/>`);
      else lines.push(`${open}>`, `      <${c.outcome === 'failure' ? 'failure' : 'skipped'} message="${xml(c.message ?? '')}"/>`, '    </testcase>');
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>', '');
  return lines.join('\n');
}

const cell = (text: string) => text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');

/** Markdown: a heading with the totals, one table row per operation, and the gate's verdict when there is one. */
export function renderMarkdown(report: WorkspaceCoverage, gate?: GateMarks): string {
  const { totals } = report;
  const lines = [
    `### Contract coverage of workspace \`${report.workspace}\`: ${coverageSummary(report)}`,
    '',
    `${totals.operations_exercised} of ${totals.operations} operations exercised, ${totals.operations_complete} with every documented status.`,
    '',
    '| Operation | Method and path | Exercised | Not exercised |',
    '| --- | --- | --- | --- |',
    ...report.operations.map((op) => {
      const missing = op.missing.map((s) => (gate?.missed.has(`${op.operation_id} ${s}`) ? `**${s} (required)**` : s));
      return `| ${cell(op.operation_id)} | ${cell(`${op.method} ${op.path}`)} | ${op.answered.join(', ')} | ${missing.join(', ')} |`;
    }),
  ];
  if (gate) lines.push('', ...gateLines(report, gate).map((line) => `- ${line}`));
  lines.push('');
  return lines.join('\n');
}

/** What --fail-under measured, in words: `5 of 12 documented statuses of the 2 operations the run called (41.7%)`. */
function calledSummary(t: NonNullable<GateMarks['threshold']>): string {
  if (t.documented === 0) {
    const what =
      t.operations === 0
        ? 'the run called no operation of the contract'
        : `the ${t.operations} operation${t.operations === 1 ? '' : 's'} the run called document no status a client request causes`;
    return `${what}, so there is no share to measure (did the tests run against this sandbox and workspace?)`;
  }
  const percent = Math.round((t.answered * 1000) / t.documented) / 10;
  const left = t.uncounted ? `, leaving out ${t.uncounted} no client request causes` : '';
  return `${t.answered} of ${t.documented} documented statuses of the ${t.operations} operation${t.operations === 1 ? '' : 's'} the run called (${percent}%${left})`;
}

/** The gate's verdict in sentences (the CLI prints them on stderr too). */
export function gateLines(report: CoverageReport, gate: GateMarks): string[] {
  const out: string[] = [];
  if (gate.threshold) {
    out.push(
      `${gate.threshold.passed ? 'Passed' : 'Failed'} --fail-under ${gate.threshold.required}: ${calledSummary(gate.threshold)}; contract-wide ${coverageSummary(report)}${gate.countForced ? '; forced answers counted (--count-forced)' : ''}.`,
    );
  }
  if (gate.requiredCount !== undefined) {
    out.push(
      gate.missed.size > 0
        ? `Failed --require: ${gate.missed.size} of ${gate.requiredCount} required pairs not exercised: ${[...gate.missed].join(', ')}.`
        : `Passed --require: all ${gate.requiredCount} required pairs exercised.`,
    );
  }
  return out;
}
