import { validatorModules } from './validator-module.js';

type Middleware = (req: { openapi?: { schema?: { requestBody?: unknown; $ref?: unknown } | null } }, res: unknown, next: (error?: unknown) => void) => unknown;
type Multipart = ((apiDoc: unknown, options: unknown) => Middleware) & { untuned?: Multipart };

/**
 * express-openapi-validator's multipart step builds its own Ajv over the whole contract (and multer) on the first
 * request of any kind, though it only ever acts on an operation that takes a body: for any other it calls next().
 * This builds it on the first request to an operation with a request body, and passes the others straight on, as
 * the step itself would.
 */
export function buildMultipartOnFirstBody(): void {
  const module = validatorModules.multipart() as { multipart: Multipart };
  if (module.multipart.untuned) return;
  const original = module.multipart;
  module.multipart = Object.assign(
    (apiDoc: unknown, options: unknown): Middleware => {
      let built: Middleware | undefined;
      return (req, res, next) => {
        const operation = req.openapi?.schema;
        // `requestBody: null` is how an operation without one reaches here once the validator has read it.
        if (operation?.requestBody == null && operation?.$ref == null) return next();
        built ??= original(apiDoc, options);
        return built(req, res, next);
      };
    },
    { untuned: original },
  );
}
