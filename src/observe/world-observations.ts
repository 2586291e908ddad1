// What the control plane reads across worlds: the request journal (a bounded ring per world), and each world's coverage.
// The registry of worlds tells this when a world is reset or forgotten; it does not know what is kept here.
import type { ContractOperation } from '../contract/document/load-contract.js';
import type { WorldsListener } from '../worlds.js';
import { CoverageTracker } from './coverage.js';
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
  /** True for a world that exists ('default' or a live workspace's id): a gone one gets no coverage. */
  isLive: (name: string) => boolean;
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
      accepts: options.isLive,
    });
  }

  /** The coverage of a world by name (created on first use); undefined for a workspace that is gone. */
  coverageOf(name: string): CoverageTracker | undefined {
    let tracker = this.coverage.get(name);
    if (!tracker && this.options.isLive(name)) {
      tracker = new CoverageTracker(this.options.operations);
      this.coverage.set(name, tracker);
    }
    return tracker;
  }

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
