import { validatorModules } from './validator-module.js';

type SpecValidatorClass = new (opts: { version: string; validateApiSpec: boolean }) => { validate(doc: unknown): { errors: unknown[] } };

/**
 * express-openapi-validator compiles the whole OpenAPI 3.1 meta-schema on every start, a visible share of it, even with
 * `validateApiSpec: false`, when nothing ever uses it. This defers that compile to the first `validate` call, so a
 * start that does not check the spec does not pay for it; one that does (validateApiSpec: true, as the contract
 * test runs it) gets exactly the original check.
 */
export function compileSpecSchemaLazily(): void {
  const module = validatorModules.specSchema() as { OpenAPISchemaValidator: SpecValidatorClass & { lazy?: true } };
  if (module.OpenAPISchemaValidator.lazy) return;
  const Eager = module.OpenAPISchemaValidator;
  class LazySpecValidator {
    static lazy = true as const;
    #eager?: InstanceType<SpecValidatorClass>;
    constructor(private readonly opts: { version: string; validateApiSpec: boolean }) {}
    validate(doc: unknown) {
      this.#eager ??= new Eager(this.opts);
      return this.#eager.validate(doc);
    }
  }
  module.OpenAPISchemaValidator = LazySpecValidator;
}
