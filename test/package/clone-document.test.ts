import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { bindingPlans } from '../../src/contract/binding-plans.js';
import { loadContract } from '../../src/contract/load-contract.js';
import { validatorOptions } from '../../src/contract/mount-contract.js';
import { defaultConfig } from '../../src/config.js';
import { handlers } from '../../src/handlers.js';
import { routeBindings } from '../../src/route-bindings.js';
import type { Runtime } from '../../src/runtime.js';
import { applyValidatorPatches } from '../../src/contract/validator/tune-validator.js';
import { validatorModules } from '../../src/contract/validator/validator-module.js';
import { projectRoot } from '../../src/paths.js';

// Inside the server bundles, `lodash.clonedeep` is src/build/clone-document.cjs (structuredClone): the validator's
// copies of the contract must come out as lodash made them, and nothing else in the bundle may be handed the swap.
const require = createRequire(import.meta.url);
type Clone = (value: unknown) => unknown;
const cloneDocument = require(join(projectRoot, 'src', 'build', 'clone-document.cjs')) as Clone;
const cloneDeep = require('lodash.clonedeep') as Clone;

/** The server bundle's module graph, as `npm run build` and `npm start` bundle it (nothing is written). */
async function serverBundleGraph(): Promise<Metafile> {
  const { serverBundleOptions } = (await import(join(projectRoot, 'src', 'build', 'server-bundle-options.mjs'))) as {
    serverBundleOptions: (entry: string, outfile: string, key: string) => Record<string, unknown>;
  };
  const result = await build({ ...serverBundleOptions('src/main.ts', join(projectRoot, 'dist', 'graph-only.cjs'), 'test'), metafile: true, sourcemap: false });
  return result.metafile!;
}

/**
 * The contract as the validator's start-up pass has it when it deep-copies it for the response validators: after
 * gathering the component schemas and the paths (schema.preprocessor.js, preProcess), with the sandbox's options.
 */
function contractAsCopied(): object {
  applyValidatorPatches();
  const doc = loadContract().doc;
  type Handlers = Parameters<typeof validatorOptions>[1];
  const runtime = { contract: doc, config: defaultConfig } as Runtime;
  const options = validatorOptions(runtime, handlers as unknown as Handlers, bindingPlans(doc, routeBindings), routeBindings);
  const validator = new (validatorModules.validator().OpenApiValidator)({ ...options, apiSpec: doc }) as unknown as {
    ajvOpts: { preprocessor: unknown };
    options: { validateResponses: unknown };
  };
  type Pass = { apiDoc: object; gatherComponentSchemaNodes(): unknown; gatherSchemaNodesFromPaths(): unknown };
  const { SchemaPreprocessor } = validatorModules.preprocessor() as unknown as { SchemaPreprocessor: new (...args: unknown[]) => Pass };
  const pass = new SchemaPreprocessor(structuredClone(doc), validator.ajvOpts.preprocessor, validator.options.validateResponses);
  pass.gatherComponentSchemaNodes();
  pass.gatherSchemaNodesFromPaths();
  return pass.apiDoc;
}

describe('the deep copy inside the server bundles', () => {
  it('When the server is bundled, then lodash.clonedeep is clone-document.cjs, asked for by the validator\'s two copies of the contract only', async () => {
    const { inputs } = await serverBundleGraph();
    expect(Object.keys(inputs).filter((file) => file.includes('node_modules/lodash.clonedeep/'))).toEqual([]);
    const callers = Object.entries(inputs)
      .filter(([, input]) => input.imports.some((imported) => imported.path === 'src/build/clone-document.cjs'))
      .map(([file]) => file)
      .sort();
    expect(callers).toEqual([
      'node_modules/express-openapi-validator/dist/index.js',
      'node_modules/express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js',
    ]);
  }, 30_000);

  it('When the contract, as the validator prepares it, is copied, then the copy is the one lodash makes', () => {
    const prepared = contractAsCopied();
    const copy = cloneDocument(prepared);
    expect(copy).not.toBe(prepared);
    expect(copy).toStrictEqual(cloneDeep(prepared));
  });

  it('When an object is reached from two places, then the copy shares one copy of it there, as lodash\'s does', () => {
    const schema = { type: 'string', enum: ['a', 'b'] };
    const doc = { components: { schemas: { Code: schema } }, paths: { '/x': { get: { parameters: [{ schema }] } } } };
    for (const clone of [cloneDocument, cloneDeep]) {
      const copy = clone(doc) as typeof doc;
      expect(copy.components.schemas.Code).not.toBe(schema);
      expect(copy.paths['/x'].get.parameters[0]!.schema).toBe(copy.components.schemas.Code);
    }
  });
});
