// The contract compiled once per process: what every app built over the same openapi.yaml may share, because none
// of it depends on a world, a configuration or an app. Whoever starts sandboxes builds it at the top (main.ts and
// startSandbox once per start unless given one; the test helper once per test process) and hands it to createRuntime:
// nothing below holds a contract of its own, and no module-level registry keeps one.
import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { CONTRACT_FORMATS } from './contract/document/formats.js';
import { loadContract, type LoadedContract } from './contract/document/load-contract.js';
import { operationFacts, type OperationFacts } from './contract/document/operation-facts.js';

/** The validator's documented options, the contract apart (the benchmark's validator floor starts it with them too). */
export const VALIDATOR_OPTIONS = {
  // The contract is checked against the OpenAPI schema in `npm test` (redocly lint and a validator test).
  validateApiSpec: false,
  // Query names the contract does not know are the tolerant reader's to ignore or refuse (src/pipeline/tolerant-reader.ts).
  validateRequests: { allErrors: true, allowUnknownQueryParameters: true },
  validateResponses: true,
  validateFormats: true,
  // The pipeline authenticates (src/access/auth.ts), reads multipart bodies (src/pipeline/read-body.ts) and calls
  // handlers (src/pipeline/handle-request.ts) itself.
  validateSecurity: false,
  fileUploader: false,
  operationHandlers: false,
} as const;

/** openapi.yaml as read, with what is compiled from it once and shared by every app built over it. */
export interface CompiledContract extends LoadedContract {
  /** Per operationId, what the pipeline decides by (src/contract/document/operation-facts.ts). */
  readonly operations: ReadonlyMap<string, OperationFacts>;
  /**
   * express-openapi-validator's middleware array over this contract, made once: the validator prepares the spec on
   * the first request and compiles each operation's request and response checks on that operation's first request,
   * then keeps them in the array's closures, so every app that runs this array reuses them. Sharing it across apps
   * is what the validator allows: its state is the prepared spec and the compiled checks, and the one app it touches
   * (`app.param` for Express routes with path parameters, on the first app that runs it) serves no route with
   * parameters (the pipeline routes operations itself, src/pipeline/route-operation.ts).
   */
  readonly validator: readonly RequestHandler[];
}

/**
 * Compiles a contract (openapi.yaml, read now, by default) for every app of this process to share. The validator is
 * given the spec the build prepared from this very document with these options when there is one (its preparation
 * is then skipped: src/contract/document/validator-spec-json.ts); otherwise it prepares the document itself.
 */
export function compileContract(loaded: LoadedContract = loadContract()): CompiledContract {
  const preparedSpec = loaded.preparedSpec?.(JSON.stringify(VALIDATOR_OPTIONS));
  return {
    text: loaded.text,
    doc: loaded.doc,
    operations: operationFacts(loaded.doc),
    // The formats are functions, so they stay out of VALIDATOR_OPTIONS, which travels as JSON (the prepared spec's
    // key, the benchmark's validator floor): `uuid`, `date` and `date-time` as ids, days and times are written.
    validator: OpenApiValidator.middleware({
      apiSpec: loaded.doc as never,
      ...VALIDATOR_OPTIONS,
      formats: CONTRACT_FORMATS,
      ...(preparedSpec && { preparedSpec }),
    }) as RequestHandler[],
  };
}

/** A contract as given to createRuntime: compiled already (shared), or read only (compiled for this runtime alone). */
export const compiledContract = (contract: LoadedContract | CompiledContract): CompiledContract =>
  'validator' in contract ? contract : compileContract(contract);
