// The coverage gate's decision, pure: a report, the pairs required and the --fail-under percentage in; what failed out.
import type { CoverageReport } from '../observe/world-observations.js';
import { pairsOf, type GateMarks } from '../observe/coverage-formats.js';

/** What the gate decided, with everything a failure message lists. */
export interface GateOutcome extends GateMarks {
  passed: boolean;
  /** Every documented pair of the operations the run called that it did not exercise, by operationId, in the contract's order. */
  missingByOperation: Map<string, string[]>;
}

/** Decides the gate. `required` is undefined without --require; `failUnder` compares the exact share, not the rounded one. */
export function decideGate(report: CoverageReport, required: readonly string[] | undefined, failUnder?: number): GateOutcome {
  const pairs = pairsOf(report);
  const exercised = new Set(pairs.filter((p) => p.exercised).map((p) => p.key));
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
      : { required: failUnder, passed: answered * 100 >= failUnder * documented, answered, documented, operations: called.size };
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
