// What the control plane reads across worlds: the request journal (a bounded ring per world), and each world's coverage.
// The registry of worlds tells this when a world is reset or forgotten; it does not know what is kept here.
// The coverage of one world is here too (CoverageTracker, below): it is kept per world and read nowhere else.
import type { components } from '../contract/document/generated.js';
import type { ContractOperation } from '../contract/document/load-contract.js';
import type { Worlds, WorldsListener } from '../worlds.js';
import { RequestJournal } from './request-journal.js';

export interface WorldObservationsOptions {
  /** The operations coverage reports on. */
  operations: readonly ContractOperation[];
  /** Requests each world's journal ring keeps. */
  journalSize: number;
  /** The journal's byte bounds: per body, per world's ring, all rings together. */
  journalBodyBytes?: number;
  journalWorkspaceBytes?: number;
  journalTotalBytes?: number;
  /** Which worlds exist ('default' or a live workspace's id): a gone one gets no coverage and no journal ring. */
  worlds: Pick<Worlds, 'isLive'>;
}

/** The request journal and the coverage per world, dropped with the world they are about. */
export class WorldObservations implements WorldsListener {
  /** Every world's requests, a bounded ring per world, newest first; read per workspace name or merged. */
  readonly journal: RequestJournal;
  private readonly coverage = new Map<string, CoverageTracker>();

  constructor(private readonly options: WorldObservationsOptions) {
    this.journal = new RequestJournal({
      capacity: options.journalSize,
      maxBodyBytes: options.journalBodyBytes,
      maxWorkspaceBytes: options.journalWorkspaceBytes,
      maxTotalBytes: options.journalTotalBytes,
      // A request that finishes after its workspace was deleted must not make it a ring nobody frees.
      accepts: (name) => options.worlds.isLive(name),
    });
  }

  /**
   * The coverage of a world by name (created on first use); undefined for a workspace that is gone. A property, so
   * the observer is handed it as it is.
   */
  readonly coverageOf = (name: string): CoverageTracker | undefined => {
    let tracker = this.coverage.get(name);
    if (!tracker && this.options.worlds.isLive(name)) {
      tracker = new CoverageTracker(this.options.operations);
      this.coverage.set(name, tracker);
    }
    return tracker;
  };

  onReset(name: string): void {
    this.coverage.get(name)?.reset();
    this.journal.clear(name);
  }

  onForget(names: readonly string[]): void {
    for (const name of names) this.coverage.delete(name);
    // Each workspace's ring goes with it.
    this.journal.clear(new Set(names));
  }
}

// Coverage: a CI job's contract tests pass; coverage says what they never exercised: which documented statuses of which
// operations this sandbox has not answered since start (or reset).
type CoverageData = components['schemas']['SandboxCoverageEnvelope']['data'];

/** The report of GET /_sandbox/coverage, without the workspace it was asked for. */
export type CoverageReport = Omit<CoverageData, 'workspace'>;
export type OperationCoverage = components['schemas']['SandboxOperationCoverage'];

const ascending = (a: number, b: number) => a - b;

/** Records which status each operation answered and reports the documented statuses never seen. */
export class CoverageTracker {
  private readonly byId: Map<string, ContractOperation>;
  private readonly seen = new Map<string, Set<number>>();
  /** Statuses answered only because `Prefer: code=` forced them: shown as `forced`, never counted as exercised. */
  private readonly forced = new Map<string, Set<number>>();

  /** `operations` is the part of the contract to report on (listOperations, filtered by the caller). */
  constructor(private readonly operations: readonly ContractOperation[]) {
    this.byId = new Map(operations.map((op) => [op.operationId, op]));
  }

  /** Notes one answer. Returns false (and records nothing) for a request that matched no reported operation. */
  record(operationId: string | null | undefined, status: number, forced = false): boolean {
    if (!operationId || !this.byId.has(operationId)) return false;
    const into = forced ? this.forced : this.seen;
    let statuses = into.get(operationId);
    if (!statuses) into.set(operationId, (statuses = new Set()));
    statuses.add(status);
    return true;
  }

  /** Forgets every recorded answer (POST /_sandbox/reset, or a CI job starting its run). */
  reset(): void {
    this.seen.clear();
    this.forced.clear();
  }

  /** Coverage per operation in contract order, plus totals. */
  report(): CoverageReport {
    const operations = this.operations.map((op): OperationCoverage => {
      const seen = this.seen.get(op.operationId) ?? new Set<number>();
      const forced = this.forced.get(op.operationId);
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
        // Answered only when forced: the client never caused them, so they stay in `missing` too.
        forced: op.statuses.filter((s) => forced?.has(s) && !seen.has(s)).map(String),
        not_client_causable: op.notClientCausable.map(String),
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
