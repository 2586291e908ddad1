import { validatorModules } from './validator-module.js';

/**
 * express-openapi-validator 5.6 finds a request's operation (metadata `lookupRoute`) by compiling every route's
 * path pattern with path-to-regexp on every request, until one matches: about a tenth of a write's CPU here. The
 * patterns are the contract's fixed set of paths, so the compiled result is memoized on the module the validator
 * uses (the same instance: see validator-module.ts). The result is read-only for its callers and its
 * regexps carry no `g` flag, so sharing them is safe.
 */
export function memoizeRoutePatterns(): void {
  const module = validatorModules.pathToRegexp() as { pathToRegexp: ((path: unknown, options?: object) => unknown) & { memoized?: true } };
  if (module.pathToRegexp.memoized) return;
  const compile = module.pathToRegexp;
  const cache = new Map<string, unknown>();
  const memoized = Object.assign(
    (path: unknown, options: object = {}) => {
      if (typeof path !== 'string') return compile(path, options);
      const key = `${path}\u0000${JSON.stringify(options)}`;
      let hit = cache.get(key);
      if (hit === undefined) {
        if (cache.size >= 2000) cache.clear();
        cache.set(key, (hit = compile(path, options)));
      }
      return hit;
    },
    { memoized: true as const },
  );
  module.pathToRegexp = memoized;
}
