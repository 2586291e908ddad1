// The coverage gate's decision, pure: a report, the pairs required and the --fail-under percentage in; what failed out.
import type { CoverageReport } from '../observe/world-observations.js';
import { pairsOf, type GateMarks } from '../observe/coverage-formats.js';

/** What the gate decided, with everything a failure message lists. */
export interface GateOutcome extends GateMarks {
  passed: boolean;
  /** Every documented pair of the operations the run called that it did not exercise, by operationId, in the contract's order. */
  missingByOperation: Map<string, string[]>;
}

/**
 * The report as the gate counts it. By default a status answered only because `Prefer: code=` forced it is not
 * exercised (the client did not cause it); with `countForced` (--count-forced) it is, as a team that drives its
 * error paths with forced answers asks.
 */
export function countedReport(report: CoverageReport, countForced: boolean): CoverageReport {
  if (!countForced) return report;
  const operations = report.operations.map((op) => {
    const forced = new Set(op.forced ?? []);
    if (forced.size === 0) return op;
    return {
      ...op,
      answered: op.documented.filter((s) => forced.has(s) || op.answered.includes(s)),
      missing: op.missing.filter((s) => !forced.has(s)),
      forced: [],
    };
  });
  const answered = operations.reduce((n, op) => n + op.answered.length, 0);
  const documented = report.totals.documented_statuses;
  return {
    operations,
    totals: {
      ...report.totals,
      operations_exercised: operations.filter((op) => op.answered.length + op.undocumented.length > 0).length,
      operations_complete: operations.filter((op) => op.documented.length > 0 && op.missing.length === 0).length,
      answered_statuses: answered,
      missing_statuses: documented - answered,
      percent: documented === 0 ? 0 : Math.round((answered / documented) * 1000) / 10,
    },
  };
}

/**
 * Decides the gate. `required` is undefined without --require; `failUnder` compares the exact share, not the rounded
 * one, of the pairs of the operations called that are not `uncounted`.
 */
export function decideGate(
  report: CoverageReport,
  required: readonly string[] | undefined,
  failUnder?: number,
  uncounted: ReadonlySet<string> = new Set(),
): GateOutcome {
  const all = pairsOf(report);
  const exercised = new Set(all.filter((p) => p.exercised).map((p) => p.key));
  // A required pair counts whatever it is; the share and the list of what is missing leave the uncounted ones out.
  const pairs = all.filter((p) => !uncounted.has(p.key));
  const missed = new Set((required ?? []).filter((key) => !exercised.has(key)));
  const missingByOperation = new Map<string, string[]>();
  for (const p of pairs) if (!p.exercised) missingByOperation.set(p.operationId, [...(missingByOperation.get(p.operationId) ?? []), p.status]);
  // --fail-under measures the client: the documented pairs of the operations the run called, not the whole contract
  // (which a client suite over a few operations never nears; it stays in the report as the contract-wide figure).
  const called = new Set(report.operations.filter((op) => op.answered.length + op.undocumented.length > 0).map((op) => op.operation_id));
  const ofCalled = pairs.filter((p) => called.has(p.operationId));
  const answered = ofCalled.filter((p) => p.exercised).length;
  const documented = ofCalled.length;
  const threshold =
    failUnder === undefined
      ? undefined
      : {
          required: failUnder,
          // Nothing called, nothing to measure: a share of 0 of 0 is no evidence the suite ran against this world,
          // so only --fail-under 0 passes it.
          passed: documented === 0 ? failUnder === 0 : answered * 100 >= failUnder * documented,
          answered,
          documented,
          operations: called.size,
          uncounted: all.filter((p) => called.has(p.operationId) && uncounted.has(p.key)).length,
        };
  for (const operationId of [...missingByOperation.keys()]) if (!called.has(operationId)) missingByOperation.delete(operationId);
  return {
    passed: missed.size === 0 && threshold?.passed !== false,
    missed,
    requiredCount: required?.length,
    required: required === undefined ? undefined : new Set(required),
    threshold,
    missingByOperation,
  };
}
