// The modules of the pinned express-openapi-validator (5.6.x) that the tuning in this folder changes. They are
// imported statically, by the same paths the validator requires them from, so that they are the very instances the
// validator uses both when run from dist/src and inside the bundled server (esbuild keeps one copy of a file).
// Each is the module's `exports` object: assigning a property on it is seen by the validator, which reads these
// exports at call time.
import * as framework from 'express-openapi-validator/dist/framework/index.js';
import * as ajvFactory from 'express-openapi-validator/dist/framework/ajv/index.js';
import * as specLoader from 'express-openapi-validator/dist/framework/openapi.spec.loader.js';
import * as validator from 'express-openapi-validator/dist/openapi.validator.js';
import * as specSchema from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import * as metadata from 'express-openapi-validator/dist/middlewares/openapi.metadata.js';
import * as preprocessor from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import * as multipart from 'express-openapi-validator/dist/middlewares/openapi.multipart.js';
import * as util from 'express-openapi-validator/dist/middlewares/util.js';
import * as pathToRegexp from 'path-to-regexp';

/** The CommonJS `exports` object behind an ESM view of it (Node's and esbuild's interop both keep it as default). */
function exportsOf<T>(ns: object): T {
  return ((ns as { default?: unknown }).default ?? ns) as T;
}

export const validatorModules = {
  framework: () => exportsOf<{ OpenAPIFramework: { prototype: object } }>(framework),
  ajv: () => exportsOf<{ createRequestAjv: unknown }>(ajvFactory),
  specSchema: () => exportsOf<{ OpenAPISchemaValidator: unknown }>(specSchema),
  metadata: () => exportsOf<{ applyOpenApiMetadata: unknown }>(metadata),
  preprocessor: () => exportsOf<{ SchemaPreprocessor: { prototype: object } }>(preprocessor),
  pathToRegexp: () => exportsOf<{ pathToRegexp: unknown }>(pathToRegexp),
  multipart: () => exportsOf<{ multipart: unknown }>(multipart),
  util: () => exportsOf<{ useAjvCache: unknown }>(util),
  validator: () => exportsOf<{ OpenApiValidator: new (options: object) => { installMiddleware(spec: Promise<unknown>): unknown } }>(validator),
  specLoader: () =>
    exportsOf<{ OpenApiSpecLoader: new (options: { apiDoc: object; validateApiSpec?: boolean; $refParser?: unknown }) => { load(): Promise<unknown> } }>(
      specLoader,
    ),
};
