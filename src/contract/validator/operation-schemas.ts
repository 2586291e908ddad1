import { validatorModules } from './validator-module.js';

type Schema = Record<string, unknown>;
type UseAjvCache = ((ajv: unknown, schema: Schema, key: string) => unknown) & { untuned?: UseAjvCache };

/** The document keys the validator puts beside each operation's schema, so that `#/components/...` refs resolve. */
const DOCUMENT_KEYS = ['paths', 'components'] as const;

/**
 * express-openapi-validator compiles each operation's schemas (the request's parameters, its body, each response
 * status) with the whole contract beside them, its `paths` and `components`, so the refs in them resolve. Ajv's
 * addSchema then walks every key of what it is handed, to collect `$id`s and anchors: the whole contract, a few
 * times per operation on its first request, and most of what that request costs. Refs are resolved later by
 * following pointers, which do not need the walk. This makes the two document keys non-enumerable on the schema
 * object the validator has just built for Ajv: the walk skips them, pointers still reach them. The contract has no
 * `$id` or anchor for the walk to find (test/contract/validator-tuning.test.ts holds that, and that every answer's
 * validity and errors are the same).
 */
export function addOperationSchemasWithoutWalkingTheDocument(): void {
  const util = validatorModules.util() as { useAjvCache: UseAjvCache };
  if (util.useAjvCache.untuned) return;
  const original = util.useAjvCache;
  util.useAjvCache = Object.assign(
    (ajv: unknown, schema: Schema, key: string) => {
      for (const name of DOCUMENT_KEYS) {
        const descriptor = Object.getOwnPropertyDescriptor(schema, name);
        if (descriptor?.enumerable) Object.defineProperty(schema, name, { ...descriptor, enumerable: false });
      }
      return original(ajv, schema, key);
    },
    { untuned: original },
  );
}
