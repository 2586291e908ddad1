import { validatorModules } from './validator-module.js';

type CreateAjv = ((spec: unknown, options: unknown) => unknown) & { untuned?: CreateAjv };
type PreprocessorClass = (new (apiDoc: unknown, ajvOptions: unknown, responseOptions: unknown) => object) & { ajvOnFirstUse?: true };

/**
 * express-openapi-validator's start-up pass (SchemaPreprocessor) builds an Ajv of its own over the whole contract,
 * a third beside the request and response validators' (a walk of the document, then each component schema added),
 * and uses it only to compile a discriminator's branches and to look up the refs resolvePreprocessorRefsByPointer
 * does not answer. The contract has neither, so that Ajv was built on every start for nothing. This builds it, from
 * the same arguments, on its first use: the pass's constructor runs as it ships with the Ajv factory answering
 * nothing for that one call, and `ajv` becomes a property that builds it when first read.
 */
export function buildPreprocessorAjvOnFirstUse(): void {
  const preprocessor = validatorModules.preprocessor() as { SchemaPreprocessor: PreprocessorClass };
  const ajv = validatorModules.ajv() as { createRequestAjv: CreateAjv };
  if (preprocessor.SchemaPreprocessor.ajvOnFirstUse) return;
  const Shipped = preprocessor.SchemaPreprocessor;
  const createRequestAjv = ajv.createRequestAjv;
  let constructing = false;
  // The validator calls the factory through its module's exports, so this is the one its constructor meets.
  ajv.createRequestAjv = Object.assign((spec: unknown, options: unknown) => (constructing ? undefined : createRequestAjv(spec, options)), {
    untuned: createRequestAjv,
  });
  class SchemaPreprocessor extends Shipped {
    static ajvOnFirstUse = true as const;
    constructor(apiDoc: unknown, ajvOptions: unknown, responseOptions: unknown) {
      constructing = true;
      try {
        super(apiDoc, ajvOptions, responseOptions);
      } finally {
        constructing = false;
      }
      // Reading it builds it and puts it in the property's place, as the constructor would have.
      const keep = (value: unknown) => {
        Object.defineProperty(this, 'ajv', { value, writable: true, enumerable: true, configurable: true });
        return value;
      };
      Object.defineProperty(this, 'ajv', {
        get: () => keep(createRequestAjv(apiDoc, ajvOptions)),
        set: (value: unknown) => void keep(value),
        enumerable: true,
        configurable: true,
      });
    }
  }
  preprocessor.SchemaPreprocessor = SchemaPreprocessor;
}
