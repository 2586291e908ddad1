// The --require file of the coverage gate: the (operation, status) pairs a team insists its run exercises.
//
//   # comments and blank lines are ignored
//   getProduct     404        one pair
//   createProduct  4xx        every 4xx status createProduct documents
//   *              404        every operation the run called that documents 404
//   *              4xx        every documented 4xx of every operation the run called
//
// `*` stands for the operations the run called (any status), as "every 404 and 422 of the operations we call" needs;
// an operation never called is required by naming it. `*` leaves out the pairs the gate does not count (statuses a
// client's requests cannot bring about, see coverage-gate.ts), and says which; naming the operation requires them. A line naming an operation the contract does not have, or a
// status the operation does not document, is a mistake in the file, not a gap in the run: it is refused (exit 2).
//
// The inspector page parses a --require file pasted into it with these very functions, sent to the browser as their
// source text (REQUIRE_FILE_SOURCE): so each refers to nothing outside itself but its arguments and built-ins.
import type { CoverageReport } from '../observe/world-observations.js';

/** One requirement as written, with its line number for messages. */
export interface Requirement {
  line: number;
  text: string;
  /** An operationId, or '*' for every operation the run called. */
  operation: string;
  /** A status (`404`) or a class (`4xx`, lower case). */
  status: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** A `*` line's pairs the gate left out because it does not count them. */
export interface SkippedByWildcard {
  line: number;
  text: string;
  pairs: string[];
}

/** Reads the file's text into requirements; every malformed line is reported as `<file>:<line>: ...`. */
export function parseRequireFile(text: string, file: string): Parsed<Requirement[]> {
  const LINE = /^(\*|[A-Za-z_][A-Za-z0-9_]*)\s+([1-5][0-9]{2}|[1-5][xX]{2})$/;
  const errors: string[] = [];
  const value: Requirement[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const content = raw.replace(/#.*$/, '').trim();
    if (content === '') return;
    const match = LINE.exec(content);
    if (!match) {
      errors.push(`${file}:${i + 1}: expected '<operationId or *> <status like 404 or 4xx>', got '${raw.trim()}'`);
      return;
    }
    value.push({ line: i + 1, text: content, operation: match[1]!, status: match[2]!.toLowerCase() });
  });
  if (errors.length === 0 && value.length === 0) errors.push(`${file}: names no pairs (lines like 'getProduct 404' or '* 422')`);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value };
}

/**
 * The pairs (`operationId status`) the requirements name in this report's contract, in the report's order. A named
 * operation the contract lacks, or a status it does not document, is an error naming the line. A `*` line leaves out
 * the `uncounted` pairs, listed in `skipped` by line.
 */
export function requiredPairs(
  requirements: readonly Requirement[],
  report: CoverageReport,
  file: string,
  uncounted: ReadonlySet<string> = new Set(),
): Parsed<string[]> & { skipped?: SkippedByWildcard[] } {
  const statusMatches = (pattern: string, status: string) => (pattern.endsWith('xx') ? status[0] === pattern[0] : status === pattern);
  const errors: string[] = [];
  const byId = new Map(report.operations.map((op) => [op.operation_id, op]));
  const called = report.operations.filter((op) => op.answered.length + op.undocumented.length > 0);
  const wanted = new Set<string>();
  const skipped: SkippedByWildcard[] = [];
  for (const r of requirements) {
    if (r.operation !== '*') {
      const op = byId.get(r.operation);
      if (!op) {
        errors.push(`${file}:${r.line}: the contract has no operation '${r.operation}' (operationIds are case-sensitive)`);
        continue;
      }
      const statuses = op.documented.filter((s) => statusMatches(r.status, s));
      if (statuses.length === 0) errors.push(`${file}:${r.line}: ${op.operation_id} documents no ${r.status} (it documents ${op.documented.join(', ')})`);
      for (const s of statuses) wanted.add(`${op.operation_id} ${s}`);
      continue;
    }
    const left: string[] = [];
    for (const op of called) {
      for (const s of op.documented.filter((d) => statusMatches(r.status, d))) {
        const key = `${op.operation_id} ${s}`;
        if (uncounted.has(key)) left.push(key);
        else wanted.add(key);
      }
    }
    if (left.length > 0) skipped.push({ line: r.line, text: r.text, pairs: left });
  }
  if (errors.length > 0) return { ok: false, errors };
  // The report's order (the contract's), whatever order the file named them in.
  const ordered = report.operations.flatMap((op) => op.documented.map((s) => `${op.operation_id} ${s}`)).filter((key) => wanted.has(key));
  return { ok: true, value: ordered, ...(skipped.length > 0 && { skipped }) };
}

/**
 * The pairs `*` lines and --fail-under leave out: the statuses the contract marks `x-sandbox-client-causable: false`
 * (the server's state or only a Prefer knob brings them about), which a client suite cannot be asked to cause. With
 * `countForced` none: a run that forces answers can force those too.
 */
export function uncountedPairs(report: CoverageReport, countForced: boolean): Set<string> {
  if (countForced) return new Set();
  return new Set(report.operations.flatMap((op) => (op.not_client_causable ?? []).map((s) => `${op.operation_id} ${s}`)));
}

/** The functions as browser script text, each bound to its own name whatever a bundler named the declaration. */
export const REQUIRE_FILE_SOURCE = `var parseRequireFile = ${parseRequireFile};\nvar requiredPairs = ${requiredPairs};\nvar uncountedPairs = ${uncountedPairs};\n`;
