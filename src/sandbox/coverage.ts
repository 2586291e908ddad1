// A CI job's contract tests pass; coverage says what they never exercised: which documented statuses of which
// operations this sandbox has not answered since start (or reset).

/** One operation of the contract with what is known about it. */
export interface DocumentedOperation {
  operationId: string;
  method: string;
  path: string;
  tags: string[];
  /** Response keys as the contract spells them: '200', '404', and possibly '4XX' or 'default'. */
  statuses: string[];
}

/** Coverage of one operation, as GET /_sandbox/coverage shows it. */
export interface OperationCoverage {
  operation_id: string;
  method: string;
  path: string;
  tag: string | null;
  documented: string[];
  /** Statuses answered so far that the contract documents (ascending). */
  answered: string[];
  /** Documented statuses never answered. */
  missing: string[];
  /** Statuses answered that the operation does not document (transport errors such as 400 or 413, or a bug). */
  undocumented: string[];
}

/** The whole report. */
export interface CoverageReport {
  operations: OperationCoverage[];
  totals: {
    operations: number;
    /** Operations answered at least once. */
    operations_exercised: number;
    /** Operations with every documented status answered. */
    operations_complete: number;
    documented_statuses: number;
    answered_statuses: number;
    missing_statuses: number;
    /** answered_statuses / documented_statuses, 0..100 with one decimal. */
    percent: number;
  };
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lists the operations of a parsed OpenAPI document in contract order; operations without an operationId are skipped. */
export function documentedOperations(spec: unknown): DocumentedOperation[] {
  const paths = isRecord(spec) && isRecord(spec.paths) ? spec.paths : {};
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isRecord(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isRecord(op) || typeof op.operationId !== 'string') continue;
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string') : [],
        statuses: isRecord(op.responses) ? Object.keys(op.responses) : [],
      });
    }
  }
  return out;
}

// '404' covers '404'; '4XX' is covered by any 4xx; 'default' by anything the operation does not list itself.
function covers(documented: string, status: number, exact: Set<string>): boolean {
  if (/^\d{3}$/.test(documented)) return documented === String(status);
  const range = /^([1-5])XX$/i.exec(documented);
  if (range) return Math.floor(status / 100) === Number(range[1]) && !exact.has(String(status));
  return documented.toLowerCase() === 'default' && !exact.has(String(status));
}

// Exact codes in numeric order, a range after the codes it spans, 'default' last.
function statusRank(key: string): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  const range = /^([1-5])XX$/i.exec(key);
  return range ? Number(range[1]) * 100 + 99.5 : 1000;
}
const byStatus = (a: string, b: string) => statusRank(a) - statusRank(b);

/** Construction options. */
export interface CoverageOptions {
  /** Leaves operations out of the report (e.g. the control plane's own endpoints). */
  include?: (op: DocumentedOperation) => boolean;
}

/** Records which status each operation answered and reports the documented statuses never seen. */
export class CoverageTracker {
  private readonly operations: DocumentedOperation[];
  private readonly byId = new Map<string, DocumentedOperation>();
  private readonly seen = new Map<string, Set<number>>();

  constructor(spec: unknown, options: CoverageOptions = {}) {
    this.operations = documentedOperations(spec).filter(options.include ?? (() => true));
    for (const op of this.operations) this.byId.set(op.operationId, op);
  }

  /** Notes one answer. Returns false (and records nothing) for a request that matched no operation. */
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
      const seen = [...(this.seen.get(op.operationId) ?? [])];
      const exact = new Set(op.statuses.filter((s) => /^\d{3}$/.test(s)));
      const answered = op.statuses.filter((d) => seen.some((s) => covers(d, s, exact)));
      const undocumented = seen.filter((s) => !op.statuses.some((d) => covers(d, s, exact))).map(String);
      return {
        operation_id: op.operationId,
        method: op.method,
        path: op.path,
        tag: op.tags[0] ?? null,
        documented: [...op.statuses].sort(byStatus),
        answered: answered.sort(byStatus),
        missing: op.statuses.filter((d) => !answered.includes(d)).sort(byStatus),
        undocumented: undocumented.sort(byStatus),
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
