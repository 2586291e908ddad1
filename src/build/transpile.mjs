// How `npm run build` and `npm start` make dist/ from src/: esbuild bundles each entry, the code entries share split
// into chunks, the dependencies a start loads bundled with them (BUNDLED_PACKAGES) and the others left in
// node_modules; then the built scripts write the contract's JSON copy (dist/openapi.json), the validator's spec
// prepared from it (dist/validator-spec.json) and the default seed's world (dist/seeded-world.json), which a start
// reads instead of parsing the YAML, preparing the spec and seeding. Last, dist/.sources lists the sources it was
// made from (src/build/sources-stamp.mjs), so that `npm start` transpiles again only after they change.
// Plain JavaScript: npm start runs it before anything is built. `node src/build/transpile.mjs` transpiles.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ENTRIES, sourcesListing, stampOf } from './sources-stamp.mjs';

export { ENTRIES };

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The packages bundled into dist/src with the code that imports them, with every file they require: what a start
 * loads, which would otherwise be some 400 CommonJS files, each resolved, read and compiled on its own. The validator
 * among them is the patched copy in node_modules (patches/), so the build carries the patch wherever dist/ goes: the
 * package and the image need no copy of it and no install script. Its patch replaces url.parse(), which Node 24
 * reports (DEP0169) when code outside node_modules calls it, as bundled code is, and loads express only for operation
 * handlers, which the sandbox does not use. Left in node_modules: what is loaded after the start or in a thread of
 * its own (swagger-ui-express serves files of its package, pino's transports, multer, js-yaml, faker).
 */
export const BUNDLED_PACKAGES = [
  'express',
  'express-openapi-validator',
  'ajv',
  'ajv-formats',
  'path-to-regexp',
  'cors',
  'helmet',
  'lowdb',
  'p-limit',
  'rate-limiter-flexible',
];
const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
/** A package stays external unless it is bundled or a bundled package's own file requires it (what express needs). */
const bundledPackagesOnly = {
  name: 'bundled-packages-only',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      BUNDLED_PACKAGES.includes(packageName(args.path)) || relative(ROOT, args.importer).split(sep)[0] === 'node_modules' ? undefined : { external: true },
    );
  },
};
/**
 * A bundled package's JSON file (mime-db's table of media types, Ajv's meta-schemas) as `JSON.parse` of its text,
 * instead of esbuild's default, the same data as a JavaScript object literal: V8 parses JSON text several times faster
 * than it compiles a literal, which a start would do on each first require. The value is the same: the text is the
 * file's, re-serialized.
 */
const packageJsonParsed = {
  name: 'package-json-parsed',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => ({
      contents: `module.exports = JSON.parse(${JSON.stringify(JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8'))))});`,
      loader: 'js',
    }));
  },
};
/**
 * esbuild writes each bundled CommonJS module (and each ES module it initializes lazily) as a method of an object
 * literal, `"node_modules/x/index.js"(exports, module) { ... }`, which V8 compiles only when it first runs. Node's
 * compile cache is made when a chunk is compiled, before it runs, so it held none of those bodies, and every start
 * compiled again each module it required. Written as a function in parentheses, `"...": (function(exports, module)
 * { ... })`, the body is compiled with the chunk (V8 compiles a parenthesized function at once, as one about to be
 * called) and the compile cache keeps it. esbuild's helpers call the property's value either way. Answers the code and
 * how many modules it rewrote; a body whose end it cannot find stops the build rather than leave the code broken.
 */
export function compileModuleBodiesWithTheChunk(code) {
  const lines = code.split('\n');
  let wrapped = 0;
  let open = false;
  for (let i = 1; i < lines.length; i++) {
    const start = /^ {2}("(?:[^"\\\n]|\\.)*")\(([^)\n]*)\) \{$/.exec(lines[i]);
    if (start && /= __(?:commonJS|esm)\(\{$/.test(lines[i - 1])) {
      if (open) throw new Error(`a bundled module starts inside another at line ${i + 1}`);
      lines[i] = `  ${start[1]}: (function(${start[2]}) {`;
      open = true;
      wrapped++;
    } else if (open && lines[i] === '  }' && lines[i + 1] === '});') {
      lines[i] = '  })';
      open = false;
    }
  }
  if (open) throw new Error('a bundled module has no end');
  return { code: lines.join('\n'), wrapped };
}

/**
 * Every build made with BUILD_OPTIONS (npm run build, npm start, the test run's entries) gets that rewrite: of the
 * files it wrote, or of the output it hands back when it writes none.
 */
const moduleBodiesCompiledWithTheChunk = {
  name: 'module-bodies-compiled-with-the-chunk',
  setup(build) {
    // The metafile names the files a build wrote (relative to its working folder).
    build.initialOptions.metafile = true;
    build.onEnd((result) => {
      if (result.outputFiles) {
        for (const file of result.outputFiles) {
          if (!/\.m?js$/.test(file.path)) continue;
          // Read from the bytes: esbuild keeps the text of a file once read, and would hand back the old one.
          const { code, wrapped } = compileModuleBodiesWithTheChunk(new TextDecoder().decode(file.contents));
          if (wrapped > 0) file.contents = new TextEncoder().encode(code);
        }
        return;
      }
      for (const output of Object.keys(result.metafile?.outputs ?? {})) {
        if (!/\.m?js$/.test(output)) continue;
        const path = join(build.initialOptions.absWorkingDir ?? process.cwd(), output);
        const { code, wrapped } = compileModuleBodiesWithTheChunk(readFileSync(path, 'utf8'));
        if (wrapped > 0) writeFileSync(path, code);
      }
    });
  },
};

/** esbuild's options for them (test/helpers/build-entries.ts builds a test run's entries with the same). */
export const BUILD_OPTIONS = {
  bundle: true,
  splitting: true,
  plugins: [bundledPackagesOnly, packageJsonParsed, moduleBodiesCompiledWithTheChunk],
  platform: 'node',
  format: 'esm',
  target: 'node22',
  logLevel: 'warning',
  // The bundled CommonJS files require Node's modules; an ES module has no `require` of its own.
  banner: { js: "import { createRequire as createRequireOfBundle } from 'node:module'; const require = createRequireOfBundle(import.meta.url);" },
};
/** The built scripts run after transpiling, in this order. */
const WRITERS = ['dist/src/build/write-contract-json.js', 'dist/src/build/write-seeded-world.js'];

/** Transpiles src/ into dist/src, runs the writers, and notes the sources it was made from. */
export async function transpile() {
  // Taken first: a file saved while esbuild reads makes the next start transpile again.
  const listing = sourcesListing();
  const { build } = await import('esbuild');
  await build({ ...BUILD_OPTIONS, absWorkingDir: ROOT, entryPoints: ENTRIES, outdir: 'dist/src', outbase: 'src' });
  for (const writer of WRITERS) {
    const run = spawnSync(process.execPath, [join(ROOT, writer)], { cwd: ROOT, stdio: 'inherit' });
    if (run.status !== 0) throw new Error(`${writer} failed (exit ${run.status ?? run.signal})`);
  }
  writeFileSync(stampOf(), listing);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await transpile();
