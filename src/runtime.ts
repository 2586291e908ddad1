// Everything a running sandbox shares between its app and its server, built once and passed in:
// nothing is looked up in app.locals or in a module-level registry.
import type { Config } from './config.js';
import { listOperations, type ContractDocument, type LoadedContract } from './contract/document/load-contract.js';
import type { OperationFacts } from './contract/document/operation-facts.js';
import { compileContract, compiledContract, type CompiledContract } from './compiled-contract.js';
import { createRequestLogger } from './observe/request-log.js';
import { createObserver, type Exchange } from './observe/observe-requests.js';
import { WorldObservations } from './observe/world-observations.js';
import { accessPolicy, type AccessPolicy } from './access/access-policy.js';
import { checkToken, type Authenticated } from './access/auth.js';
import type { Worlds } from './worlds.js';
import type { World } from './world.js';
import type { ResourceAccess } from './areas/context.js';
import { retailerOf } from './areas/channels/retailer-instance.js';
import { uploadStorageFor } from './areas/products/uploads.js';
import { SupplierCatalogues } from './areas/sourcing/rules/supplier-catalogue.js';
import { retailerEndpointSchema } from './contract/document/retailer-endpoint.js';
import { WorldResources } from './world-resources.js';
import { publicOrigin, type OriginOf } from './http/public-origin.js';

/** The wiring of one sandbox: its worlds, configuration, contract, observers and authentication. */
export interface Runtime {
  readonly worlds: Worlds;
  readonly config: Config;
  /** The contract document the app routes and validates by. */
  readonly contract: ContractDocument;
  /** Per operationId, what the pipeline decides by: who may call it, whether it creates a workspace, is journaled. */
  readonly operations: ReadonlyMap<string, OperationFacts>;
  /** The contract with what is compiled from it once per process (the validator's checks), shared by every app over it. */
  readonly compiled: CompiledContract;
  /**
   * Records one finished exchange in the journal, the coverage report and the log (observeWhenFinished,
   * src/observe/observe-requests.ts).
   */
  readonly observe: (exchange: Exchange) => void;
  /** The request journal and each world's coverage, which the control plane reads. */
  readonly observations: WorldObservations;
  /** The caller a bearer token names, with its world; undefined for a token the pipeline refuses (checkToken, src/access/auth.ts). */
  readonly authenticate: (token: string) => Authenticated | undefined;
  /** Hosted mode's admin token and the per-address creation limit. */
  readonly policy: AccessPolicy;
  /** The origin of a request's absolute URLs: PUBLIC_URL when configured (always hosted), else the request's own. */
  readonly originOf: OriginOf;
  /**
   * What a world keeps beside its store (the retailer, the uploads) and the supplier catalogues every world shares,
   * reached by handlers as ctx.retailer, ctx.uploads and ctx.catalogues.
   */
  readonly resourcesOf: (world: World) => ResourceAccess;
  /** The supplier catalogues and scraping finds this sandbox has computed (emptied on close). */
  readonly catalogues: SupplierCatalogues;
  /** The contract as it was read, text and document (workspace bundles name the text's SHA-256). */
  readonly loadedContract: LoadedContract;
  /** What the sandbox keeps for all its worlds, each made on first use (a bundle's compiled checks), let go on close. */
  readonly shared: WorldResources;
  /** Where unexpected errors are logged (stderr by default). */
  readonly log?: (line: string) => void;
  /**
   * Lets go of what the sandbox keeps: deletes its workspaces, empties the supplier catalogues and what it shares
   * between worlds, lets its seeded bases go, and flushes and releases the default world's store. Stop the server first.
   */
  close(): Promise<void>;
}

export interface RuntimeOptions {
  worlds: Worlds;
  config: Config;
  /**
   * The contract the app routes, validates and answers by, with the text it was read from (bundles name its SHA-256):
   * compiled once per process by whoever starts sandboxes (compileContract, src/compiled-contract.ts), so every app
   * over it shares the validator's compiled checks; a contract only read is compiled for this runtime alone.
   * Default: openapi.yaml, read and compiled now.
   */
  contract?: LoadedContract | CompiledContract;
  /** Where unexpected errors are logged (stderr by default). */
  log?: (line: string) => void;
  /** Each request's JSON log line, for tests and embedders; by default stdout (pretty in a terminal). config.logLevel decides which lines. */
  requestLog?: (line: string) => void;
}

/** The runtime of one sandbox over its worlds and configuration. */
export function createRuntime({ worlds, config, contract: given, log, requestLog }: RuntimeOptions): Runtime {
  const loaded = given === undefined ? compileContract() : compiledContract(given);
  const contract = loaded.doc;
  const policy = accessPolicy(config);
  const originOf = publicOrigin(config);
  const retailerEndpoint = retailerEndpointSchema(contract);
  const catalogues = new SupplierCatalogues();
  const shared = new WorldResources();
  const observations = new WorldObservations({
    // Coverage is about the versioned API a client tests, not the harness's own control plane.
    operations: listOperations(contract).filter((op) => !op.tags.includes('Sandbox')),
    journalSize: config.journalSize,
    journalBodyBytes: config.journalBodyBytes,
    journalWorkspaceBytes: config.journalWorkspaceBytes,
    journalTotalBytes: config.journalTotalBytes,
    worlds,
  });
  worlds.listen(observations);
  const logger = createRequestLogger({ level: config.logLevel, write: requestLog });
  const observe = createObserver({
    journal: observations.journal,
    coverageOf: observations.coverageOf,
    logger,
  });
  // The default world's files on disk may predate this run: its storage exists from the start, so a reset removes them.
  uploadStorageFor(worlds.defaultWorld, config);
  return {
    worlds,
    config,
    contract,
    operations: loaded.operations,
    compiled: loaded,
    observe,
    observations,
    // The pipeline's own check (checkToken), so a token the pipeline refuses is never accepted before it.
    authenticate: (token) => checkToken(token, worlds, policy).caller,
    policy,
    originOf,
    resourcesOf: (world) => ({
      retailer: () => retailerOf(world, retailerEndpoint),
      uploads: () => uploadStorageFor(world, config),
      catalogues,
      contract: loaded,
      shared,
    }),
    catalogues,
    loadedContract: loaded,
    shared,
    log,
    close: async () => {
      catalogues.clear();
      shared.dispose();
      await worlds.close();
    },
  };
}
