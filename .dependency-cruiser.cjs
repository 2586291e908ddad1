// The architecture guide's "Who may import whom" (docs/architecture.md), checked by `npm run lint` and so by
// `npm test`. Arrows point from the importer to what it uses. The layers, top to bottom; a file may import its own
// layer or any layer below it, never one above:
//   entry     src/main.ts, src/index.ts, src/start-sandbox.ts, src/server.ts, src/cli/, src/build/
//   app       src/app.ts (createApp), src/handlers.ts (every operation's handler)
//   pipeline  src/pipeline/: the request pipeline, its fast paths and the Prefer: code step
//   runtime   src/runtime.ts: what createRuntime builds and the pipeline is given; src/compiled-contract.ts, what it
//             is given compiled once per process
//   feature   src/access/, src/areas/, src/sandbox/ (the control plane and the pages: landing, docs)
//   edge      src/knobs/, src/observe/, src/http/, src/retailer/ (the simulated retailer: areas use it)
//   worlds    src/worlds.ts, src/world.ts, src/world-resources.ts, src/memory-budget.ts, src/memory-reservations.ts
//   store     src/store/
//   base      src/config.ts, src/paths.ts, src/secret-strength.ts, src/fixed-window-limit.ts, src/node-http.ts,
//             src/percent-decode.ts (how a path or segment reads decoded: routing, the retailer, the journal filter),
//             and src/contract/: the contract as a document (its generated types, the parsed document, the
//             per-operation facts), which every layer may read and which imports only paths.ts; its machinery lives
//             with its users (the validator's step and the tolerant reader in src/pipeline/, the docs page in
//             src/sandbox/)
// Within a layer, folders may use each other as long as no two top-level folders of src/ form a cycle: a folder's
// subfolders count as the folder (no-top-folder-cycle, checked by src/build/top-folder-cycles.mjs on this
// configuration, since dependency-cruiser's own folder scope sees each deepest folder apart), and no two folders at
// any depth do (no-folder-cycle). Type-only imports count (tsPreCompilationDeps): a type is a dependency on the
// module that owns it.

/** The layers, top first, each a list of path patterns (relative to the repository root). */
const layers = [
  ['entry', ['^src/(main|index|start-sandbox|server)\\.ts$', '^src/cli/', '^src/build/']],
  ['app', ['^src/(app|handlers)\\.ts$']],
  ['pipeline', ['^src/pipeline/']],
  ['runtime', ['^src/(runtime|compiled-contract)\\.ts$']],
  ['feature', ['^src/(access|areas|sandbox)/']],
  ['edge', ['^src/(knobs|observe|http|retailer)/']],
  ['worlds', ['^src/(worlds|world|world-resources|memory-budget|memory-reservations)\\.ts$']],
  ['store', ['^src/store/']],
  ['base', ['^src/(config|paths|secret-strength|fixed-window-limit|node-http|percent-decode)\\.ts$', '^src/[^/]+\\.d\\.ts$', '^src/contract/']],
];

const pathsOf = (list) => list.flatMap(([, paths]) => paths);

const layerRules = layers.slice(1).map(([name, paths], i) => {
  const below = layers.slice(i + 1);
  return {
    name: `layer-${name}`,
    comment: `${name} may not import a layer above it (${layers
      .slice(0, i + 1)
      .map(([n]) => n)
      .join(', ')}).`,
    severity: 'error',
    from: { path: paths },
    to: {
      path: pathsOf(layers.slice(0, i + 1)),
      pathNot: pathsOf(below),
    },
  };
});

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-folder-cycle',
      comment: 'No cycles between the top-level folders of src/.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+/?$' },
      to: { circular: true },
    },
    {
      name: 'store-no-area',
      comment: 'Never store -> an area: areas register their collections and seeds.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/areas/' },
    },
    {
      name: 'store-no-http',
      comment: 'Never store -> http: storage answers undefined, the edge turns it into 404.',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'worlds-no-http-sandbox-contract',
      comment:
        'Never worlds -> http, sandbox or contract: the registry throws no HTTP errors, does not own the journal (observe) and does not read the contract.',
      severity: 'error',
      from: { path: '^src/(worlds|world|world-resources)\\.ts$' },
      to: { path: ['^src/http/', '^src/sandbox/', '^src/contract/', '^src/observe/'] },
    },
    {
      name: 'contract-no-area',
      comment: 'Never contract -> an area (its rules or its records): the contract knows operations, not the domain.',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/areas/' },
    },
    {
      name: 'area-no-sandbox',
      comment: 'Never an area -> sandbox: areas know no control plane; what they need of the knobs reaches them through ctx.',
      severity: 'error',
      from: { path: '^src/areas/' },
      to: { path: '^src/sandbox/' },
    },
    {
      name: 'retailer-no-area',
      comment: 'Never retailer -> an area: the simulated retailer knows nothing of this API.',
      severity: 'error',
      from: { path: '^src/retailer/' },
      to: { path: '^src/areas/' },
    },
    {
      name: 'src-no-test-or-bench',
      comment: 'The shipped code never imports tests, benchmarks or build output.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench|dist)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
