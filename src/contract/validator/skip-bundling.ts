import { validatorModules } from './validator-module.js';

type LoadSpec = (spec: unknown, refParser?: unknown) => Promise<unknown>;

// A symbol-keyed own property, set on the validator's own copy of the contract (own-copy.ts) before the loader
// reads it: JSON, Ajv and every key walk ignore it.
const BUNDLED = Symbol('sandbox.contract-bundled');

/**
 * Marks a document the validator may take as it is: one whose `$ref`s are all local, so json-schema-ref-parser's
 * `bundle` (which inlines external files) has nothing to do, yet still crawls and re-resolves every ref, on
 * every start. test/contract/validator-tuning.test.ts holds that bundling the contract changes nothing.
 */
export function markBundled<T extends object>(doc: T): T {
  Object.defineProperty(doc, BUNDLED, { value: true, enumerable: true });
  return doc;
}

/** Makes the validator's spec loader hand a document marked by markBundled straight through. */
export function skipBundlingOfBundledDocs(): void {
  const proto = validatorModules.framework().OpenAPIFramework.prototype as { loadSpec: LoadSpec & { skipsBundled?: true } };
  if (proto.loadSpec.skipsBundled) return;
  const original = proto.loadSpec;
  proto.loadSpec = Object.assign(
    function loadSpec(this: unknown, spec: unknown, refParser?: unknown) {
      if (spec !== null && typeof spec === 'object' && (spec as Record<symbol, unknown>)[BUNDLED] === true) return Promise.resolve(spec);
      return original.call(this, spec, refParser);
    },
    { skipsBundled: true as const },
  );
}
