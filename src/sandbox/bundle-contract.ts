// What workspace bundles are stamped with and checked against: the runtime's own contract, its identity, its
// operations and its compiled checks, made once per runtime, so nothing below the top reads openapi.yaml again.
import { listOperations, type LoadedContract } from '../contract/document/load-contract.js';
import { contractIdentity, type WorkspaceBundle } from './bundle-format.js';
import { BundleParts } from './bundle-parts.js';
import { ContractChecks } from './bundle-records.js';
import { resourceKind, type WorldResources } from '../world-resources.js';

/** One runtime's contract as bundles see it. */
export class BundleContract {
  /** What an export names and a load compares: info.version and the SHA-256 of the YAML text. */
  readonly identity: WorkspaceBundle['contract'];
  /** The operations a bundle's coverage may name. */
  readonly operationIds: ReadonlySet<string>;
  /** The statuses each operation documents (what coverage lists as answered rather than undocumented). */
  readonly documented: ReadonlyMap<string, ReadonlySet<string>>;
  /** The record checks, compiled on the first load. */
  readonly checks: ContractChecks;
  /** The contract's SandboxWorkspaceBundle in parts, compiled on the first load or export (a loaded file meets no request validator). */
  readonly parts: BundleParts;

  constructor(contract: LoadedContract) {
    this.identity = contractIdentity(contract);
    const operations = listOperations(contract.doc);
    this.operationIds = new Set(operations.map((op) => op.operationId));
    this.documented = new Map(operations.map((op) => [op.operationId, new Set(op.statuses.map(String))]));
    this.checks = new ContractChecks(contract.doc);
    this.parts = new BundleParts(this.checks);
  }

  /** Compiles every check a load or an export runs that is not compiled yet, a schema per step, `between` awaited after each. */
  async prepare(between: () => Promise<void>): Promise<void> {
    await this.checks.prepare(between);
    await this.parts.prepare(between);
  }
}

const BUNDLE_CONTRACT = resourceKind<BundleContract>('bundle-contract');

/** The sandbox's BundleContract, made on the first export or load and kept with what it shares between worlds. */
export const bundleContractOf = ({ shared, contract }: { shared: WorldResources; contract: LoadedContract }): BundleContract =>
  shared.of(BUNDLE_CONTRACT, () => new BundleContract(contract));
