// Which test files make which suite (vitest.config.ts turns these lists into projects). Every file of test/ is in
// exactly one project, so `npm test` (all projects) runs each once:
// - quick: the inner loop, `npm run test:quick` (docs/testing.md): the pipeline's order of checks, the handlers of
//   every area through the server a user starts, and the contract checks; in process, no browser, no child process.
// - node: the files whose outcome depends on the Node release, which CI runs on every Node the engines allow
//   (.ci/run): the memory guard (V8's heap limits and statistics), the start path (the CLI, npm start, the packed
//   bin, the seeding thread) and the warnings a start prints (deprecations differ by release); and the inspector, which
//   a CI job's failed run is read in.
// - rest: everything else (browsers, nginx, floods, the README's runs), on the Node users run (24).
// - isolated: the files of quick or rest that need a module graph of their own (ISOLATED below).

/** The inner loop: pipeline, handlers, contract checks. */
export const QUICK = [
  'test/contract/order-of-checks.test.ts',
  'test/contract/documented-statuses.test.ts',
  'test/contract/contract.test.ts',
  'test/contract/contract-parse.test.ts',
  'test/contract/id-examples.test.ts',
  'test/tolerant/**/*.test.ts',
  'test/core/auth.test.ts',
  'test/core/errors.test.ts',
  'test/core/merchants.test.ts',
  'test/core/pagination.test.ts',
  'test/core/sandbox.test.ts',
  'test/core/users.test.ts',
  'test/core/store-transactions.test.ts',
  'test/products/products.test.ts',
  'test/channels/channels.test.ts',
  'test/sourcing/suppliers.test.ts',
  'test/forecasting/opportunity-forecasts-api.test.ts',
  'test/marketplaces/catalog-api.test.ts',
  'test/sourcing/supplier-items.test.ts',
  'test/forecasting/sales-volume-forecasts-api.test.ts',
  'test/retailer/listings.test.ts',
  'test/hosted/hosted-access.test.ts',
  'test/regressions/control-plane-by-operation.test.ts',
  'test/regressions/missing-body.test.ts',
  'test/toolkit/compiled-contract.test.ts',
  'test/toolkit/prefer-knobs.test.ts',
];

/** The files whose outcome depends on the Node release: memory guard, start path, warnings. */
export const NODE_DEPENDENT = [
  // The memory guard: V8's heap limits and statistics.
  'test/toolkit/memory-budget.test.ts',
  'test/toolkit/workspace-budget.test.ts',
  'test/regressions/workspace-flood-heap.test.ts',
  'test/regressions/upload-flood-memory.test.ts',
  'test/hosted/memory-reservations.test.ts',
  'test/regressions/bundle-load-flood.test.ts',
  'test/regressions/write-flood.test.ts',
  'test/hosted/writes-memory-budget.test.ts',
  // The start path: the CLI, npm start, the packed bin and its Dockerfile command (no warning), the seeding thread.
  'test/toolkit/cli.test.ts',
  'test/toolkit/start-sandbox.test.ts',
  'test/core/one-process.test.ts',
  'test/core/seeding-thread.test.ts',
  'test/hosted/hosted-config.test.ts',
  'test/package/packed-install.test.ts',
  'test/package/one-artifact.test.ts',
  // The publish path: the tarball published to a registry on loopback, then npx from it.
  'test/package/registry-publish.test.ts',
  // What a loaded bundle may hold (issue 31): at every limit it loads and reads promptly, past one it is refused.
  'test/bundle/bundle-limits.property.test.ts',
  // The inspector (issue 35), the page a CI job's run is read in, with the trail the pipeline records for it: checked
  // on every Node a job may run, in a real browser.
  'test/inspector/**/*.test.ts',
];

/**
 * The files that need a module graph of their own: vitest runs the quick and rest projects' files one after another
 * on the same modules in each worker (vitest.config.ts), so a file that replaces a module with vi.mock, which only
 * reaches importers evaluated after it, runs in the `isolated` project instead.
 */
export const ISOLATED = ['test/toolkit/prefer-parsed-once.test.ts'];

/**
 * The files that take longest (docs/testing.md lists their times), slowest first and started first: on two cores the
 * suite ends when its longest file does, so those must not start last. Vitest orders by the last run's times when it
 * has them; a fresh clone has none. The files that install the package alternate with the browser files: the first
 * packs the run's one tarball (test/helpers/packed-package.ts) while the other core runs a browser file, and the
 * others, which wait for that tarball, start after it.
 */
export const SLOWEST_FIRST = [
  'test/package/packed-install.test.ts',
  'test/toolkit/docs-one-click.test.ts',
  'test/package/one-artifact.test.ts',
  'test/toolkit/docs-every-example.test.ts',
  'test/package/registry-publish.test.ts',
  'test/regressions/upload-flood-memory.test.ts',
  'test/readme/ci-job.test.ts',
  'test/inspector/inspector-hosted.test.ts',
  'test/regressions/workspace-flood-heap.test.ts',
  'test/hosted/docs-per-tab.test.ts',
  'test/inspector/inspector-browser.test.ts',
  'test/toolkit/docs-world-switch.test.ts',
  'test/toolkit/docs-try-it.test.ts',
  'test/durability/graceful-shutdown.test.ts',
  'test/contract/contract-fuzz.test.ts',
  'test/hosted/event-loop-free.test.ts',
  'test/hosted/upload-xss.test.ts',
  'test/regressions/journal-flood.test.ts',
  'test/toolkit/docs-page.test.ts',
  'test/readme/readme-typescript.test.ts',
];
