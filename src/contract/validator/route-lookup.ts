import { validatorModules } from './validator-module.js';

type Middleware = (req: LookupRequest, res: unknown, next: (error?: unknown) => void) => unknown;
type Factory = ((context: RouteContext, responseApiDoc: unknown) => Middleware) & { untuned?: Factory };
interface RouteContext {
  expressRouteMap: Record<string, unknown>;
  useRequestUrl?: boolean;
}
interface LookupRequest {
  url: string;
  originalUrl: string;
  app: { enabled(setting: string): boolean };
}
type Compile = (path: string, options: object) => { regexp: RegExp };

/**
 * express-openapi-validator 5.6 finds a request's route (metadata `lookupRoute`) by walking every route of the
 * contract on every request, building each one's matcher options and regexp anew until one matches: the largest
 * single cost of a write here. This finds the first matching route in the same order with the same regexps (built
 * once per routing mode), then runs the validator's own metadata middleware on a view of its context that holds
 * just that route, or none. The validator's code then decides everything as before (the match, its params, 404,
 * 405, ignored paths) after one regexp instead of sixty. test/contract/validator-tuning.test.ts compares the two
 * for every operation of the contract and for paths it does not have.
 */
export function lookUpRoutesOnce(): void {
  const module = validatorModules.metadata() as { applyOpenApiMetadata: Factory };
  if (module.applyOpenApiMetadata.untuned) return;
  const original = module.applyOpenApiMetadata;
  const { pathToRegexp } = validatorModules.pathToRegexp() as { pathToRegexp: Compile };
  module.applyOpenApiMetadata = Object.assign(
    (context: RouteContext, responseApiDoc: unknown): Middleware => {
      const view: RouteContext = Object.create(context);
      const middleware = original(view, responseApiDoc);
      const singles = new Map<string, Record<string, unknown>>();
      const matchers = new Map<string, { route: string; regexp: RegExp }[]>();
      const matchersFor = (sensitive: boolean, strict: boolean) => {
        const mode = `${sensitive}/${strict}`;
        let list = matchers.get(mode);
        if (!list) {
          // The same walk order and the same options object shape as the validator's lookupRoute.
          list = Object.keys(context.expressRouteMap).map((route) => ({ route, regexp: pathToRegexp(route, { sensitive, strict }).regexp }));
          matchers.set(mode, list);
        }
        return list;
      };
      return (req, res, next) => {
        const path = (context.useRequestUrl ? req.url : req.originalUrl).split('?')[0]!;
        const list = matchersFor(!!req.app.enabled('case sensitive routing'), !!req.app.enabled('strict routing'));
        let only: Record<string, unknown> = {};
        for (const { route, regexp } of list) {
          if (!regexp.test(path)) continue;
          only = singles.get(route) ?? { [route]: context.expressRouteMap[route] };
          if (!singles.has(route)) singles.set(route, only);
          break;
        }
        // Read synchronously by the validator's lookup, before this call returns.
        view.expressRouteMap = only;
        return middleware(req, res, next);
      };
    },
    { untuned: original },
  );
}
