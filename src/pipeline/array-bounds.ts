// A body array longer than its schema's `maxItems` is refused before the validator runs, naming the bound alone.
// The validator checks every item of such an array too, gathering each item's errors into one list by
// concatenation, which grows with the square of the items: 30,000 `{}` cost tiers (90 KB, under the body limit)
// held the event loop for seconds, the body limit's worth for minutes. The bound is what the client must fix first.
import { deref, isObj, type ContractDocument } from '../contract/document/load-contract.js';
import type { FieldErrors } from '../http/errors.js';
import { bodySchemas } from './one-of-errors.js';

/** How deep the walk follows the schema: the contract's request bodies nest a few levels. */
const MAX_DEPTH = 32;

/** The field errors of the arrays a request body holds past their bound, or undefined. */
export type ArrayBoundCheck = (body: unknown) => FieldErrors | undefined;

/**
 * The check of each operation whose JSON body schema bounds an array, by operationId: an operation without one is
 * not in the map, so its requests run nothing of this file.
 */
export function arrayBoundChecks(doc: ContractDocument): ReadonlyMap<string, ArrayBoundCheck> {
  const checks = new Map<string, ArrayBoundCheck>();
  for (const [operationId, schema] of bodySchemas(doc)) {
    if (!boundsAnArray(doc, schema, 0)) continue;
    checks.set(operationId, (body) => {
      const errors = Object.create(null) as FieldErrors;
      walk(doc, schema, body, [], errors, 0);
      return Object.keys(errors).length > 0 ? errors : undefined;
    });
  }
  return checks;
}

function boundsAnArray(doc: ContractDocument, ref: unknown, depth: number): boolean {
  const schema = deref(doc, ref);
  if (!isObj(schema) || depth > MAX_DEPTH) return false;
  if (typeof schema.maxItems === 'number') return true;
  if (schema.items !== undefined && boundsAnArray(doc, schema.items, depth + 1)) return true;
  return isObj(schema.properties) && Object.values(schema.properties).some((property) => boundsAnArray(doc, property, depth + 1));
}

/** The value along its schema's properties and items; an array past its bound is named and not entered. */
function walk(doc: ContractDocument, ref: unknown, value: unknown, path: string[], errors: FieldErrors, depth: number): void {
  const schema = deref(doc, ref);
  if (!isObj(schema) || depth > MAX_DEPTH) return;
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) {
      const field = path.length > 0 ? path.join('.') : 'body';
      // The validator's own sentence for the bound (src/http/validation-errors.ts words it the same way).
      errors[field] = [`The ${field} field must not have more than ${schema.maxItems} items.`];
      return;
    }
    if (schema.items !== undefined) for (const [i, item] of value.entries()) walk(doc, schema.items, item, [...path, String(i)], errors, depth + 1);
    return;
  }
  if (!isObj(value) || !isObj(schema.properties)) return;
  // Own members only: a body's `__proto__` or `constructor` is not what its object inherits.
  for (const [key, property] of Object.entries(schema.properties))
    if (Object.hasOwn(value, key)) walk(doc, property, value[key], [...path, key], errors, depth + 1);
}
