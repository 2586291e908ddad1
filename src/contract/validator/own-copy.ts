import type { RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { markBundled } from './skip-bundling.js';
import { validatorModules } from './validator-module.js';

type ValidatorOptions = Parameters<typeof OpenApiValidator.middleware>[0];

/**
 * express-openapi-validator's middleware over `doc`, as its `middleware()` builds it, with one difference: the copy
 * of the document it prepares (and changes) is made by structuredClone instead of lodash's cloneDeep, which does
 * the same to a JSON document in more than twice the time on a cold start.
 * `tuned` is whether the validator is the release the patches were written for (tune-validator.ts); on any other,
 * its own `middleware()` runs.
 */
export function validatorMiddleware(doc: object, options: Omit<ValidatorOptions, 'apiSpec'>, tuned: boolean): RequestHandler[] {
  // Untuned, nothing skips bundling, so the document goes unmarked; `middleware()` deep-copies it.
  if (!tuned) return OpenApiValidator.middleware({ ...options, apiSpec: doc as never }) as RequestHandler[];
  const { OpenApiValidator: Validator } = validatorModules.validator();
  const { OpenApiSpecLoader } = validatorModules.specLoader();
  // The validator only checks that apiSpec is there (the document it works on is the loader's apiDoc), and fills in
  // the defaults of the options it was given, which the loader then reads.
  const opts: ValidatorOptions = { ...options, apiSpec: doc as never };
  const validator = new Validator(opts);
  const spec = new OpenApiSpecLoader({ apiDoc: markBundled(structuredClone(doc)), validateApiSpec: opts.validateApiSpec, $refParser: opts.$refParser }).load();
  return validator.installMiddleware(spec) as RequestHandler[];
}
