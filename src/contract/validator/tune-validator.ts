import { createRequire } from 'node:module';
import { buildMultipartOnFirstBody } from './lazy-multipart.js';
import { addOperationSchemasWithoutWalkingTheDocument } from './operation-schemas.js';
import { compileSpecSchemaLazily } from './lazy-spec-schema.js';
import { buildPreprocessorAjvOnFirstUse } from './preprocessor-ajv.js';
import { resolvePreprocessorRefsByPointer } from './preprocessor-refs.js';
import { lookUpRoutesOnce } from './route-lookup.js';
import { memoizeRoutePatterns } from './route-pattern-cache.js';
import { skipBundlingOfBundledDocs } from './skip-bundling.js';

/**
 * The express-openapi-validator release the patches were written against and tested on. They replace functions
 * inside its dist/ files, which any other release may have moved or changed.
 */
export const PATCHED_VALIDATOR_VERSION = '5.6.2';

/** The express-openapi-validator version that is installed (its package.json). */
export function installedValidatorVersion(): string {
  return (createRequire(import.meta.url)('express-openapi-validator/package.json') as { version: string }).version;
}

/** For tests: the installed version to check (default: read it), and where the one-line warning goes. */
export interface ApplyValidatorPatchesOptions {
  installedVersion?: string;
  warn?: (line: string) => void;
}

/**
 * Work express-openapi-validator 5.6 does that changes no answer: repeated on every request, or done at start-up and
 * thrown away. Each change is one file here, keeps the validator's results (test/contract/validator-tuning.test.ts),
 * and is applied once per process, before the validator is built.
 *
 * Only on the release they were written for: on any other, the validator runs as it ships (same answers, slower
 * start-up and requests) and one line says so. Answers true when the patches are in place.
 */
export function applyValidatorPatches(options: ApplyValidatorPatchesOptions = {}): boolean {
  const installed = options.installedVersion ?? installedValidatorVersion();
  if (installed !== PATCHED_VALIDATOR_VERSION) {
    const warn = options.warn ?? ((line: string) => process.emitWarning(line));
    warn(
      `express-openapi-validator ${installed} is installed; its speed-ups (src/contract/validator/) were written for ` +
        `${PATCHED_VALIDATOR_VERSION}, so it runs untuned: the same answers, more slowly.`,
    );
    return false;
  }
  memoizeRoutePatterns();
  lookUpRoutesOnce();
  resolvePreprocessorRefsByPointer();
  buildPreprocessorAjvOnFirstUse();
  compileSpecSchemaLazily();
  skipBundlingOfBundledDocs();
  buildMultipartOnFirstBody();
  addOperationSchemasWithoutWalkingTheDocument();
  return true;
}
