import { validatorModules } from './validator-module.js';

interface Preprocessor {
  apiDoc: unknown;
  resolvedSchemaCache: Map<string, unknown>;
  resolveSchema(schema: unknown): unknown;
}

/**
 * express-openapi-validator's start-up pass (SchemaPreprocessor) looks up each `$ref` it meets with
 * `ajv.getSchema(ref).schema`. That answers the very object the document holds at that pointer (the validator adds
 * each component schema to that Ajv under its own pointer), but compiles it, and everything it refers to, first:
 * a large share of every start, for validators that are thrown away (each route compiles its own on first use).
 * This answers the same object by following the pointer, which is what the preprocessor itself falls back to when
 * Ajv has no schema for a ref. Only local refs (`#/...`) are followed; the contract has no other kind, and any other
 * ref still takes the original path.
 */
export function resolvePreprocessorRefsByPointer(): void {
  const proto = validatorModules.preprocessor().SchemaPreprocessor.prototype as Preprocessor & { byPointer?: true };
  if (proto.byPointer) return;
  const original = proto.resolveSchema;
  proto.resolveSchema = Object.assign(
    function resolveSchema(this: Preprocessor, schema: unknown) {
      const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
      if (typeof ref !== 'string' || !ref.startsWith('#/')) return original.call(this, schema);
      const known = this.resolvedSchemaCache.get(ref);
      if (known !== undefined) return known;
      const target = followPointer(this.apiDoc, ref);
      if (target === undefined) return original.call(this, schema);
      this.resolvedSchemaCache.set(ref, target);
      return target;
    },
    { untuned: original },
  );
  proto.byPointer = true;
}

/** The value at a local JSON pointer (`#/a/b~1c`) of a document, or undefined. */
export function followPointer(doc: unknown, ref: string): unknown {
  let node = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
