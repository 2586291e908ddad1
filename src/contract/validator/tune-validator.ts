import { compileSpecSchemaLazily } from './lazy-spec-schema.js';
import { resolvePreprocessorRefsByPointer } from './preprocessor-refs.js';
import { lookUpRoutesOnce } from './route-lookup.js';
import { memoizeRoutePatterns } from './route-pattern-cache.js';
import { skipBundlingOfBundledDocs } from './skip-bundling.js';

/**
 * Work express-openapi-validator 5.6 does that changes no answer: repeated on every request, or done at start-up and
 * thrown away. Each change is one file here, keeps the validator's results (test/contract/validator-tuning.test.ts),
 * and is applied once per process, before the validator is built.
 */
export function tuneValidator(): void {
  memoizeRoutePatterns();
  lookUpRoutesOnce();
  resolvePreprocessorRefsByPointer();
  compileSpecSchemaLazily();
  skipBundlingOfBundledDocs();
}
