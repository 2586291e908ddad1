// A CI job's contract tests pass; coverage says what they never exercised: which documented statuses of which
// operations this sandbox has not answered since start (or reset).
import type { ContractOperation } from '../contract/document/load-contract.js';
import type { components } from '../contract/document/generated.js';

type CoverageData = components['schemas']['SandboxCoverageEnvelope']['data'];

/** The report of GET /_sandbox/coverage, without the workspace it was asked for. */
export type CoverageReport = Omit<CoverageData, 'workspace'>;
export type OperationCoverage = components['schemas']['SandboxOperationCoverage'];

const ascending = (a: number, b: number) => a - b;

/** Records which status each operation answered and reports the documented statuses never seen. */
export class CoverageTracker {
  private readonly byId: Map<string, ContractOperation>;
  private readonly seen = new Map<string, Set<number>>();

  /** `operations` is the part of the contract to report on (listOperations, filtered by the caller). */
  constructor(private readonly operations: readonly ContractOperation[]) {
    this.byId = new Map(operations.map((op) => [op.operationId, op]));
  }

  /** Notes one answer. Returns false (and records nothing) for a request that matched no reported operation. */
  record(operationId: string | null | undefined, status: number): boolean {
    if (!operationId || !this.byId.has(operationId)) return false;
    let statuses = this.seen.get(operationId);
    if (!statuses) this.seen.set(operationId, (statuses = new Set()));
    statuses.add(status);
    return true;
  }

  /** Forgets every recorded answer (POST /_sandbox/reset, or a CI job starting its run). */
  reset(): void {
    this.seen.clear();
  }

  /** Coverage per operation in contract order, plus totals. */
  report(): CoverageReport {
    const operations = this.operations.map((op): OperationCoverage => {
      const seen = this.seen.get(op.operationId) ?? new Set<number>();
      const documented = new Set(op.statuses);
      return {
        operation_id: op.operationId,
        method: op.method,
        path: op.path,
        tag: op.tags[0] ?? null,
        documented: op.statuses.map(String),
        answered: op.statuses.filter((s) => seen.has(s)).map(String),
        missing: op.statuses.filter((s) => !seen.has(s)).map(String),
        // Transport errors (400, 413, ...) are not documented per operation; a bug would show up here too.
        undocumented: [...seen]
          .filter((s) => !documented.has(s))
          .sort(ascending)
          .map(String),
      };
    });
    const documented = operations.reduce((n, o) => n + o.documented.length, 0);
    const answered = operations.reduce((n, o) => n + o.answered.length, 0);
    return {
      operations,
      totals: {
        operations: operations.length,
        operations_exercised: operations.filter((o) => o.answered.length + o.undocumented.length > 0).length,
        operations_complete: operations.filter((o) => o.documented.length > 0 && o.missing.length === 0).length,
        documented_statuses: documented,
        answered_statuses: answered,
        missing_statuses: documented - answered,
        percent: documented === 0 ? 0 : Math.round((answered / documented) * 1000) / 10,
      },
    };
  }
}
